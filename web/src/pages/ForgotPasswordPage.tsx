import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api/client';
import type { MessageResponse } from '../api/types';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { AuthLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';

export function ForgotPasswordPage() {
  useDocumentTitle('Forgot Password');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSubmitting(true);
    const result = await api.post<MessageResponse>(
      '/api/auth/forgot-password',
      { email },
      { token: null, fallbackError: 'Failed to send the reset link. Please try again.' },
    );
    setSubmitting(false);
    if (result.ok) setSentTo(email);
    else setError(result.error);
  }

  if (sentTo) {
    return (
      <AuthLayout>
        <div className="result-panel" data-testid="forgot-password-sent">
          <span className="icon-badge icon-badge-lg icon-badge-green">
            <Icon name="mail" size={28} />
          </span>
          <h1>Check Your Email</h1>
          <p>
            If an account exists for <strong>{sentTo}</strong>, we sent a link to reset your password. The link expires
            in 1 hour.
          </p>
          <Link to="/login" className="btn btn-primary btn-block">
            Back to Sign In
          </Link>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <div className="auth-heading">
        <span className="icon-badge icon-badge-lg">
          <Icon name="lock" size={26} />
        </span>
        <h1>Forgot Your Password?</h1>
        <p className="muted">
          Enter the email address of your account and we will send you a link to choose a new one.
        </p>
      </div>
      {error && (
        <Alert kind="error" testId="forgot-password-error">
          {error}
        </Alert>
      )}
      <form className="form" onSubmit={(event) => void handleSubmit(event)}>
        <div className="field">
          <label htmlFor="forgot-email">Email Address</label>
          <input
            id="forgot-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="you@example.com"
            data-testid="forgot-password-email"
          />
        </div>
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={submitting}
          data-testid="forgot-password-submit"
        >
          {submitting ? 'Sending...' : 'Send Reset Link'}
        </button>
      </form>
      <p className="auth-switch">
        Remembered it? <Link to="/login">Back to Sign In</Link>
      </p>
    </AuthLayout>
  );
}
