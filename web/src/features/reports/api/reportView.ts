import type { ReportViewReply } from '@homereport/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

/**
 * GET /api/requests/:id/view. The first view in a credit period costs a credit, later ones are
 * free, so a refetch costs nothing; it renews the signed file links (they last 15 minutes)
 * when the reader comes back after a while. The answer carries the report's documents' formats
 * and, when there is one, its ZIP code's analysis (null otherwise).
 */
export function useReportView(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.report(id),
    queryFn: async () => {
      const reply = await apiCall<ReportViewReply>(`/api/requests/${encodeURIComponent(id)}/view`, {
        fallbackError: 'Failed to fetch report',
      });
      // The view moved the reader's credits and history.
      void queryClient.invalidateQueries({ queryKey: queryKeys.user });
      return reply;
    },
    staleTime: 10 * 60_000,
  });
}
