import type { MfaActivateReply, MfaEnrolReply, MfaStatusReply } from '@homereport/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, storeToken } from '../../../api/client';

const statusKey = ['admin', 'mfa'] as const;

/** GET /api/auth/mfa: whether two-step sign-in is on for this admin, and whether it must be. */
export const useMfaStatus = () =>
  useQuery({ queryKey: statusKey, queryFn: ({ signal }) => apiCall<MfaStatusReply>('/api/auth/mfa', { signal }) });

/** POST /api/auth/mfa/enrol: a new secret to put in the authenticator app. */
export const useMfaEnrol = () =>
  useMutation({ mutationFn: () => apiCall<MfaEnrolReply>('/api/auth/mfa/enrol', { method: 'POST' }) });

/**
 * POST /api/auth/mfa/activate. The answer's session replaces the one that asked (which may have
 * reached only this page), so its token is kept at once, before anything else is called.
 */
export function useMfaActivate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiCall<MfaActivateReply>('/api/auth/mfa/activate', { method: 'POST', body: { code } }),
    onSuccess: (reply) => {
      storeToken(reply.token, 'admin');
      void queryClient.invalidateQueries({ queryKey: statusKey });
    },
  });
}
