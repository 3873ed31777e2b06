import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api/client';
import type { MessageResponse } from '../api/types';
import { Alert } from '../components/Alert';
import { PasswordField } from '../components/PasswordField';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { EMAIL_NOT_VERIFIED, useSession } from '../session/SessionProvider';

type ResendState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent'; email: string }
  | { kind: 'failed'; error: string };

export function LoginPage() {
  useDocumentTitle('Sign In');
  const { login, error, errorCode, clearError } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [resend, setResend] = useState<ResendState>({ kind: 'idle' });

  // An error left by another sign-in screen does not belong to this one.
  useEffect(() => {
    clearError();
  }, [clearError]);

  function edit(setter: (value: string) => void) {
    return (value: string) => {
      setter(value);
      if (error) clearError();
      if (resend.kind !== 'idle') setResend({ kind: 'idle' });
    };
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    setResend({ kind: 'idle' });
    const result = await login(email, password);
    if (!result.ok) setSubmitting(false);
  }

  async function resendVerification() {
    setResend({ kind: 'sending' });
    const result = await api.post<MessageResponse>(
      '/api/auth/resend-verification',
      { email },
      { token: null, fallbackError: 'Failed to resend verification email' },
    );
    setResend(result.ok ? { kind: 'sent', email } : { kind: 'failed', error: result.error });
  }

  const unverified = errorCode === EMAIL_NOT_VERIFIED;

  return (
    <AuthLayout>
      <div className="auth-heading">
        <h1>Welcome Back</h1>
        <p className="muted">Sign in to your HomeReport account</p>
      </div>

      {error && (
        <Alert kind="error" testId="login-error">
          <p>{error}</p>
          {unverified && resend.kind !== 'sent' && (
            <button
              type="button"
              className="btn btn-secondary btn-sm alert-action"
              onClick={() => void resendVerification()}
              disabled={resend.kind === 'sending'}
              data-testid="resend-verification"
            >
              {resend.kind === 'sending' ? 'Sending...' : 'Resend verification email'}
            </button>
          )}
        </Alert>
      )}
      {resend.kind === 'sent' && (
        <Alert kind="success" testId="resend-confirmation">
          If an account exists for <strong>{resend.email}</strong>, a new verification email is on its way.
        </Alert>
      )}
      {resend.kind === 'failed' && <Alert kind="error">{resend.error}</Alert>}

      <form className="form" onSubmit={(event) => void handleSubmit(event)} noValidate={false}>
        <div className="field">
          <label htmlFor="login-email">Email Address</label>
          <input
            id="login-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => edit(setEmail)(event.target.value)}
            placeholder="you@example.com"
            data-testid="login-email"
          />
        </div>
        <PasswordField
          id="login-password"
          label="Password"
          value={password}
          onChange={edit(setPassword)}
          autoComplete="current-password"
          placeholder="Your password"
          testId="login-password"
        />
        <div className="form-row-end">
          <Link to="/forgot-password" className="link-sm">
            Forgot password?
          </Link>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={submitting} data-testid="login-submit">
          {submitting ? 'Signing In...' : 'Sign In'}
        </button>
      </form>

      <p className="auth-switch">
        Don't have an account? <Link to="/register">Sign up</Link>
      </p>
      <div className="auth-back">
        <BackLink />
      </div>
    </AuthLayout>
  );
}
