import type { AdminDashboardReply, RecentRequestsReply } from '@homereport/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

/** GET /api/admin/dashboard: request counts by status, report views, user counts. */
export function useAdminDashboard() {
  return useQuery({
    queryKey: queryKeys.adminDashboard,
    queryFn: async () =>
      (await apiCall<AdminDashboardReply>('/api/admin/dashboard', { fallbackError: 'Failed to load statistics' }))
        .stats,
    staleTime: 0,
  });
}

/** GET /api/admin/recent-requests, newest first. */
export function useRecentRequests() {
  return useQuery({
    queryKey: queryKeys.adminRecentRequests,
    queryFn: async () =>
      (
        await apiCall<RecentRequestsReply>('/api/admin/recent-requests', {
          fallbackError: 'Failed to load recent requests',
        })
      ).requests,
    staleTime: 0,
  });
}
