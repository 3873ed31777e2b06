import type { CreateRequestBody, CreateRequestReply } from '@homereport/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

/** POST /api/requests: anyone may ask; a signed-in requester is linked by the stored token. */
export function createRequest(body: CreateRequestBody): Promise<CreateRequestReply> {
  return apiCall<CreateRequestReply>('/api/requests', {
    method: 'POST',
    body,
    fallbackError: 'Failed to submit request',
  });
}

export function useCreateRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRequest,
    onSuccess: () => {
      // The requester's own list and the admin counters now include this request.
      void queryClient.invalidateQueries({ queryKey: queryKeys.myRequests });
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin });
    },
  });
}
