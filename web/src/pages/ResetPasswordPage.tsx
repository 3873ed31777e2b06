import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api } from '../api/client';
import type { MessageResponse } from '../api/types';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { PasswordField } from '../components/PasswordField';
import { AuthLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { checkNewPassword } from '../session/passwordRules';

type Problem = { message: string; fromServer: boolean };

export function ResetPasswordPage() {
  useDocumentTitle('Reset Password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [problem, setProblem] = useState<Problem | null>(
    token ? null : { message: 'This password reset link is incomplete.', fromServer: true },
  );
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = checkNewPassword(password, confirmPassword);
    if (check) {
      setProblem({ message: check, fromServer: false });
      return;
    }
    setProblem(null);
    setSubmitting(true);
    const result = await api.post<MessageResponse>(
      '/api/auth/reset-password',
      { token, password },
      { token: null, fallbackError: 'Failed to reset password' },
    );
    setSubmitting(false);
    if (result.ok) {
      setDone(true);
      setPassword('');
      setConfirmPassword('');
    } else {
      setProblem({ message: result.error, fromServer: !result.networkError });
    }
  }

  if (done) {
    return (
      <AuthLayout>
        <div className="result-panel" data-testid="reset-password-success">
          <span className="icon-badge icon-badge-lg icon-badge-green">
            <Icon name="checkCircle" size={28} />
          </span>
          <h1>Password Changed</h1>
          <p>Your password has been changed and all other sessions were signed out.</p>
          <p className="muted">Sign in with your new password to continue.</p>
          <Link to="/login" className="btn btn-primary btn-block">
            Sign In
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
        <h1>Choose a New Password</h1>
        <p className="muted">Your new password must be at least 8 characters long.</p>
      </div>
      {problem && (
        <Alert kind="error" testId="reset-password-error">
          <p>{problem.message}</p>
          {problem.fromServer && (
            <p>
              <Link to="/forgot-password">Request a new reset link</Link>
            </p>
          )}
        </Alert>
      )}
      <form className="form" onSubmit={(event) => void handleSubmit(event)}>
        <PasswordField
          id="reset-password"
          label="New Password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          placeholder="At least 8 characters"
          testId="reset-password"
        />
        <PasswordField
          id="reset-confirm-password"
          label="Confirm New Password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          autoComplete="new-password"
          placeholder="Repeat your new password"
          testId="reset-confirm-password"
        />
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={submitting || !token}
          data-testid="reset-password-submit"
        >
          {submitting ? 'Saving...' : 'Reset Password'}
        </button>
      </form>
      <p className="auth-switch">
        <Link to="/login">Back to Sign In</Link>
      </p>
    </AuthLayout>
  );
}
