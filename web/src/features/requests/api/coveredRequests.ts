import type { CoveredRequestsReply } from '@homereport/contracts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

export type CoveredSort = 'newest' | 'city';

export interface CoveredSearch {
  /** Words of the address; blank for every report. */
  q: string;
  sort: CoveredSort;
}

/** A page of a search of 24 reports, the first page of the plain list as everyone sees it (kept by the gateway). */
export const SEARCH_PAGE_SIZE = 24;

export function coveredRequestsPath({ q, sort }: CoveredSearch, cursor: string | null): string {
  const params = new URLSearchParams();
  const words = q.trim();
  if (words) params.set('q', words);
  if (sort !== 'newest') params.set('sort', sort);
  if (params.size > 0) params.set('limit', String(SEARCH_PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `/api/requests/covered?${query}` : '/api/requests/covered';
}

/**
 * GET /api/requests/covered: public, no file links, a page at a time; `next_cursor` (null or
 * absent on the last page) asks for the next one. While a new search loads, the last results stay.
 */
export function useCoveredRequests(search: CoveredSearch) {
  const q = search.q.trim();
  return useInfiniteQuery({
    queryKey: [...queryKeys.coveredRequests, { q, sort: search.sort }],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      apiCall<CoveredRequestsReply>(coveredRequestsPath({ q, sort: search.sort }, pageParam), {
        token: null,
        fallbackError: 'Failed to fetch properties',
      }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    select: (data) => ({
      properties: data.pages.flatMap((page) => page.properties),
      pageCount: data.pages.length,
    }),
  });
}
