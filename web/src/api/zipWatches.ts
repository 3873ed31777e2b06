import type { ZipWatchReply } from '@homereport/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../lib/queryKeys';
import { apiCall } from './client';

/**
 * Watched ZIP codes (api.md "Beyond the spec"), read by the watch button on a ZIP code's page (zip
 * feature) and listed on the dashboard and Settings: shared, so it lives here.
 */

/** GET /api/users/zip-watch: the ZIP codes the signed-in user watches. Only asked for when signed in. */
export function useZipWatches(enabled = true) {
  return useQuery({
    queryKey: queryKeys.zipWatches,
    queryFn: async () =>
      (await apiCall<ZipWatchReply>('/api/users/zip-watch', { fallbackError: 'Failed to load your watched ZIP codes' }))
        .zips,
    enabled,
    staleTime: 60_000,
  });
}

/** PUT or DELETE /api/users/zip-watch/:zip; optimistic, read again afterwards. */
export function useToggleZipWatch() {
  const queryClient = useQueryClient();
  const key = queryKeys.zipWatches;
  return useMutation({
    mutationFn: ({ zipCode, watch }: { zipCode: string; watch: boolean }) =>
      apiCall<void>(`/api/users/zip-watch/${encodeURIComponent(zipCode)}`, {
        method: watch ? 'PUT' : 'DELETE',
        fallbackError: watch ? 'Failed to watch this ZIP code' : 'Failed to stop watching this ZIP code',
      }),
    onMutate: async ({ zipCode, watch }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<string[]>(key);
      const others = (before ?? []).filter((z) => z !== zipCode);
      queryClient.setQueryData<string[]>(key, watch ? [zipCode, ...others] : others);
      return { before };
    },
    onError: (_err, _vars, context) => queryClient.setQueryData(key, context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
