import type {
  AdminRequestReply,
  CoverageRequest,
  ReportSummary,
  ReportSummaryReply,
  RequestStatus,
  UpdateStatusBody,
  UpdateStatusReply,
  UploadReportsReply,
} from '@homereport/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';
import { type UploadPlan, uploadFormData } from '../reportFiles';

const requestPath = (id: string) => `/api/admin/requests/${encodeURIComponent(id)}`;

/** GET /api/admin/requests/:id: the request itself, with signed file links. */
export function useAdminRequest(id: string) {
  return useQuery({
    queryKey: queryKeys.adminRequest(id),
    queryFn: () => apiCall<AdminRequestReply>(requestPath(id), { fallbackError: 'Failed to load request details' }),
    staleTime: 0,
  });
}

/** After a change: reload the request (spec section 4) and everything listing requests. */
function useRefreshAfterChange(id: string) {
  const queryClient = useQueryClient();
  return async (request: CoverageRequest) => {
    queryClient.setQueryData(queryKeys.adminRequest(id), request);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.admin }),
      queryClient.invalidateQueries({ queryKey: queryKeys.coveredRequests }),
      queryClient.invalidateQueries({ queryKey: queryKeys.myRequests }),
    ]);
  };
}

/** PUT /api/admin/requests/:id/status: any of the three from any status. */
export function useUpdateStatus(id: string) {
  const refresh = useRefreshAfterChange(id);
  return useMutation({
    mutationFn: (status: RequestStatus) =>
      apiCall<UpdateStatusReply>(`${requestPath(id)}/status`, {
        method: 'PUT',
        body: { status } satisfies UpdateStatusBody,
        fallbackError: 'Failed to update status',
      }),
    onSuccess: (reply) => refresh(reply.request),
  });
}

/** POST /api/admin/requests/:id/upload: one multipart part per file, named by its type. */
export function useUploadReports(id: string) {
  const refresh = useRefreshAfterChange(id);
  return useMutation({
    mutationFn: (parts: UploadPlan['parts']) =>
      apiCall<UploadReportsReply>(`${requestPath(id)}/upload`, {
        method: 'POST',
        body: uploadFormData(parts),
        fallbackError: 'Failed to upload files',
        networkError: 'Network error during upload. Please try again.',
      }),
    onSuccess: (reply) => refresh(reply.request),
  });
}

/** PUT /api/admin/requests/:id/summary: the report's headline figures, replaced whole (`{}` clears them). */
export function useUpdateSummary(id: string) {
  const refresh = useRefreshAfterChange(id);
  return useMutation({
    mutationFn: (summary: ReportSummary) =>
      apiCall<ReportSummaryReply>(`${requestPath(id)}/summary`, {
        method: 'PUT',
        body: summary,
        fallbackError: 'Failed to save the headline figures',
      }),
    onSuccess: (reply) => refresh(reply.request),
  });
}
