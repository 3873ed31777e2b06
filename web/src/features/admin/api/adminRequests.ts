import type { AdminRequestsReply, RequestStatus } from '@homereport/contracts';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

export interface AdminRequestFilter {
  q: string;
  status: RequestStatus | '';
  /** Only the requests of this property ('' for every property). */
  property: string;
}

export const ADMIN_PAGE_SIZE = 50;

export function adminRequestsPath({ q, status, property }: AdminRequestFilter, cursor: string | null): string {
  const params = new URLSearchParams();
  if (q.trim()) params.set('q', q.trim());
  if (status) params.set('status', status);
  if (property) params.set('property_id', property);
  params.set('limit', String(ADMIN_PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return `/api/admin/requests?${params}`;
}

/** GET /api/admin/requests?property_id=: every request of one property, newest first (one page: a handful). */
export function usePropertyRequests(propertyId: string | undefined) {
  return useQuery({
    queryKey: [...queryKeys.admin, 'property-requests', propertyId],
    enabled: Boolean(propertyId),
    queryFn: () =>
      apiCall<AdminRequestsReply>(`/api/admin/requests?property_id=${encodeURIComponent(propertyId ?? '')}`, {
        fallbackError: "Failed to load the property's requests",
      }),
    select: (data) => data.requests,
    staleTime: 0,
  });
}

/** GET /api/admin/requests: every request, newest first, searched and filtered, a page at a time. */
export function useAdminRequests(filter: AdminRequestFilter) {
  const q = filter.q.trim();
  return useInfiniteQuery({
    queryKey: [...queryKeys.admin, 'requests-list', { q, status: filter.status, property: filter.property }],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      apiCall<AdminRequestsReply>(adminRequestsPath({ ...filter, q }, pageParam), {
        fallbackError: 'Failed to load requests',
      }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    staleTime: 0,
    select: (data) => data.pages.flatMap((page) => page.requests),
  });
}
