import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api } from '../api/client';
import type { MessageResponse } from '../api/types';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { Spinner } from '../components/Spinner';
import { useDocumentTitle } from '../hooks/useDocumentTitle';

type VerifyState = { kind: 'verifying' } | { kind: 'verified'; message: string } | { kind: 'failed'; error: string };

const MISSING_TOKEN = 'This verification link is incomplete. Request a new verification email below.';

export function VerifyEmailPage() {
  useDocumentTitle('Verify Email');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<VerifyState>(
    token ? { kind: 'verifying' } : { kind: 'failed', error: MISSING_TOKEN },
  );
  // A verification token works once; React's development double-run of effects must not spend it twice.
  const requested = useRef(false);

  useEffect(() => {
    if (!token || requested.current) return;
    requested.current = true;
    void api
      .post<MessageResponse>(
        '/api/auth/verify-email',
        { token },
        { token: null, fallbackError: 'This verification link is invalid or has expired.' },
      )
      .then((result) => {
        setState(
          result.ok
            ? { kind: 'verified', message: result.data?.message ?? 'Your email address has been verified.' }
            : { kind: 'failed', error: result.error },
        );
      });
  }, [token]);

  return (
    <AuthLayout>
      {state.kind === 'verifying' && (
        <div className="result-panel" data-testid="verify-pending">
          <Spinner label="Verifying your email" />
          <h1>Verifying Your Email</h1>
          <p className="muted">One moment while we confirm your email address.</p>
        </div>
      )}
      {state.kind === 'verified' && (
        <div className="result-panel" data-testid="verify-success">
          <span className="icon-badge icon-badge-lg icon-badge-green">
            <Icon name="checkCircle" size={28} />
          </span>
          <h1>Email Verified!</h1>
          <p>{state.message}</p>
          <p className="muted">Your account is active. Sign in to start exploring property reports.</p>
          <Link to="/login" className="btn btn-primary btn-block">
            Sign In
          </Link>
        </div>
      )}
      {state.kind === 'failed' && <VerificationFailed error={state.error} />}
    </AuthLayout>
  );
}

type ResendState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent'; email: string }
  | { kind: 'failed'; error: string };

function VerificationFailed({ error }: { error: string }) {
  const [email, setEmail] = useState('');
  const [resend, setResend] = useState<ResendState>({ kind: 'idle' });

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setResend({ kind: 'sending' });
    const result = await api.post<MessageResponse>(
      '/api/auth/resend-verification',
      { email },
      { token: null, fallbackError: 'Failed to resend verification email' },
    );
    setResend(result.ok ? { kind: 'sent', email } : { kind: 'failed', error: result.error });
  }

  return (
    <div data-testid="verify-failed">
      <div className="auth-heading">
        <span className="icon-badge icon-badge-lg icon-badge-red">
          <Icon name="alert" size={28} />
        </span>
        <h1>Verification Failed</h1>
      </div>
      <Alert kind="error" testId="verify-error">
        {error}
      </Alert>

      {resend.kind === 'sent' ? (
        <Alert kind="success" testId="resend-confirmation">
          If an account exists for <strong>{resend.email}</strong>, a new verification email is on its way.
        </Alert>
      ) : (
        <form className="form" onSubmit={(event) => void handleSubmit(event)}>
          <p className="muted">Enter your email address and we will send you a new verification link.</p>
          {resend.kind === 'failed' && <Alert kind="error">{resend.error}</Alert>}
          <div className="field">
            <label htmlFor="resend-email">Email Address</label>
            <input
              id="resend-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              placeholder="you@example.com"
              data-testid="resend-email"
            />
          </div>
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={resend.kind === 'sending'}
            data-testid="resend-submit"
          >
            {resend.kind === 'sending' ? 'Sending...' : 'Resend Verification Email'}
          </button>
        </form>
      )}
      <div className="auth-back">
        <Link to="/login" className="link-sm">
          Back to Sign In
        </Link>
        <BackLink />
      </div>
    </div>
  );
}
