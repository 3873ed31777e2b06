import type { CoverageRequest, SavedReportsReply } from '@homereport/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../lib/queryKeys';
import { apiCall } from './client';

/**
 * Saved reports (api.md "Beyond the spec"), read by the star on /properties and the report page
 * (requests and reports features) and listed on the dashboard and Settings: shared, so it lives here.
 */

/** GET /api/users/saved: newest saved first. Only asked for when signed in. */
export function useSavedReports(enabled = true) {
  return useQuery({
    queryKey: queryKeys.savedReports,
    queryFn: async () =>
      (await apiCall<SavedReportsReply>('/api/users/saved', { fallbackError: 'Failed to load your saved reports' }))
        .saved,
    enabled,
    staleTime: 60_000,
  });
}

/**
 * PUT or DELETE /api/users/saved/:id. Optimistic: the star and the saved-report lists change at once,
 * go back if the server refuses, and the list is read again afterwards either way.
 */
export function useToggleSaved() {
  const queryClient = useQueryClient();
  const key = queryKeys.savedReports;
  return useMutation({
    mutationFn: ({ request, save }: { request: CoverageRequest; save: boolean }) =>
      apiCall<void>(`/api/users/saved/${encodeURIComponent(request.id)}`, {
        method: save ? 'PUT' : 'DELETE',
        fallbackError: save ? 'Failed to save the report' : 'Failed to remove the saved report',
      }),
    onMutate: async ({ request, save }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<CoverageRequest[]>(key);
      const others = (before ?? []).filter((r) => r.id !== request.id);
      queryClient.setQueryData<CoverageRequest[]>(key, save ? [request, ...others] : others);
      return { before };
    },
    onError: (_err, _vars, context) => queryClient.setQueryData(key, context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
