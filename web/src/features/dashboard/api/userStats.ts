import type { AccessHistoryReply, UserStats } from '@homereport/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

/** GET /api/users/stats: the kept counters of the signed-in user. */
export function useUserStats() {
  return useQuery({
    queryKey: queryKeys.userStats,
    queryFn: () => apiCall<UserStats>('/api/users/stats', { fallbackError: 'Failed to load your statistics' }),
    staleTime: 0,
  });
}

/** GET /api/users/access-history, newest first. */
export function useAccessHistory() {
  return useQuery({
    queryKey: queryKeys.accessHistory,
    queryFn: async () =>
      (await apiCall<AccessHistoryReply>('/api/users/access-history', { fallbackError: 'Failed to load history' }))
        .history,
    staleTime: 0,
  });
}
