import type { CoveredRequestsReply } from '@homereport/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

/** Reports listed on a ZIP code's page; past this many, a link to Browse lists them all. */
export const ZIP_PROPERTIES_SHOWN = 24;

/**
 * GET /api/requests/covered?zip=: the covered properties of one ZIP code (public fields only),
 * newest first, from the ZIP code's own index. Under the covered list's key, so a covering or a
 * change of figures made in this tab refreshes it.
 */
export function useZipProperties(zipCode: string) {
  return useQuery({
    queryKey: [...queryKeys.coveredRequests, 'zip', zipCode],
    queryFn: ({ signal }) =>
      apiCall<CoveredRequestsReply>(
        `/api/requests/covered?zip=${encodeURIComponent(zipCode)}&limit=${ZIP_PROPERTIES_SHOWN}`,
        { token: null, signal, fallbackError: 'Failed to load the property reports of this ZIP code' },
      ),
    staleTime: 60_000,
  });
}
