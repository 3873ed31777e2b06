import type { CoveredRequestsReply } from '@homereport/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

/** GET /api/requests/covered: public, most recently completed first, no file links. */
export function useCoveredRequests() {
  return useQuery({
    queryKey: queryKeys.coveredRequests,
    queryFn: async () => {
      const reply = await apiCall<CoveredRequestsReply>('/api/requests/covered', {
        token: null,
        fallbackError: 'Failed to fetch properties',
      });
      return reply.properties;
    },
  });
}
