import { useCallback, useState } from 'react';
import { api } from '../api/client';
import type { MessageResponse } from '../api/types';
import { Alert } from './Alert';

export type ResendState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent'; email: string }
  | { kind: 'failed'; error: string };

const IDLE: ResendState = { kind: 'idle' };

/** Asks for a new verification email and tracks how that request went. */
export function useResendVerification() {
  const [state, setState] = useState<ResendState>(IDLE);

  const send = useCallback(async (email: string) => {
    setState({ kind: 'sending' });
    const result = await api.post<MessageResponse>(
      '/api/auth/resend-verification',
      { email },
      { token: null, fallbackError: 'Failed to resend verification email' },
    );
    setState(result.ok ? { kind: 'sent', email } : { kind: 'failed', error: result.error });
  }, []);

  const reset = useCallback(() => setState(IDLE), []);

  return { state, send, reset };
}

/** What a person sees once a new verification email has been asked for. */
export function ResendConfirmation({ email }: { email: string }) {
  return (
    <Alert kind="success" testId="resend-confirmation">
      If an account exists for <strong>{email}</strong>, a new verification email is on its way.
    </Alert>
  );
}
