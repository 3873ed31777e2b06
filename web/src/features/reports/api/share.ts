import type { ShareLinkReply, SharedReportReply } from '@homereport/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

const sharePath = (id: string) => `/api/requests/${encodeURIComponent(id)}/share`;

/** POST /api/requests/:id/share: a new link each time (earlier ones keep working until revoked). */
export function useCreateShareLink(id: string) {
  return useMutation({
    mutationFn: () =>
      apiCall<ShareLinkReply>(sharePath(id), { method: 'POST', fallbackError: 'Failed to create a share link' }),
  });
}

/** DELETE /api/requests/:id/share: every link made to this report so far stops working. */
export function useRevokeShareLinks(id: string) {
  return useMutation({
    mutationFn: () => apiCall<void>(sharePath(id), { method: 'DELETE', fallbackError: 'Failed to revoke the links' }),
  });
}

/**
 * GET /api/shared/:token, sent without the visitor's token: a shared report is nobody's view, and
 * a visitor who happens to be signed in must not be signed out by anything this call answers.
 * Refetched now and then like the report page: it renews the signed file links.
 */
export function useSharedReport(token: string) {
  return useQuery({
    queryKey: queryKeys.sharedReport(token),
    queryFn: async () =>
      (
        await apiCall<SharedReportReply>(`/api/shared/${encodeURIComponent(token)}`, {
          token: null,
          fallbackError: 'Failed to fetch the shared report',
        })
      ).request,
    staleTime: 10 * 60_000,
  });
}
