import type { CoveredRequestsReply } from '@homereport/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

export function coveredRequestsPath(cursor: string | null): string {
  return cursor ? `/api/requests/covered?cursor=${encodeURIComponent(cursor)}` : '/api/requests/covered';
}

/**
 * GET /api/requests/covered: public, most recently completed first, no file links, a page at a
 * time; `next_cursor` (null or absent on the last page) asks for the next one.
 */
export function useCoveredRequests() {
  return useInfiniteQuery({
    queryKey: queryKeys.coveredRequests,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      apiCall<CoveredRequestsReply>(coveredRequestsPath(pageParam), {
        token: null,
        fallbackError: 'Failed to fetch properties',
      }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    select: (data) => ({
      properties: data.pages.flatMap((page) => page.properties),
      pageCount: data.pages.length,
    }),
  });
}
