import type { MyRequestsReply } from '@homereport/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

/** How often the dashboard asks again while it is open, so a status change shows without a reload. */
export const MY_REQUESTS_REFRESH_MS = 30_000;

/** GET /api/requests/mine: the caller's own requests, newest first, with live status. */
export function useMyRequests() {
  return useQuery({
    queryKey: queryKeys.myRequests,
    queryFn: async () =>
      (await apiCall<MyRequestsReply>('/api/requests/mine', { fallbackError: 'Failed to load your requests' }))
        .requests,
    staleTime: 0,
    refetchInterval: MY_REQUESTS_REFRESH_MS,
  });
}
