import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api/client';
import type { MessageResponse } from '../api/types';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { PasswordField } from '../components/PasswordField';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { checkNewPassword } from '../session/passwordRules';

const benefits = [
  '10 free report credits per month',
  'Access to ZIP code analyses',
  'Request tracking',
  'Email notifications',
];

export function RegisterPage() {
  useDocumentTitle('Create Account');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = checkNewPassword(password, confirmPassword);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSubmitting(true);
    const result = await api.post<MessageResponse>(
      '/api/auth/register',
      { email, password },
      { token: null, fallbackError: 'Registration failed' },
    );
    setSubmitting(false);
    if (result.ok) {
      setRegisteredEmail(email);
      setPassword('');
      setConfirmPassword('');
    } else {
      setError(result.error);
    }
  }

  if (registeredEmail) {
    return (
      <AuthLayout>
        <div className="result-panel" data-testid="register-success">
          <span className="icon-badge icon-badge-lg icon-badge-green">
            <Icon name="mail" size={28} />
          </span>
          <h1>Check Your Email</h1>
          <p>
            We sent a verification email to <strong>{registeredEmail}</strong>.
          </p>
          <p className="muted">
            You must verify your email address before you can sign in. Open the link in the email to activate your
            account.
          </p>
          <Link to="/login" className="btn btn-primary btn-block">
            Go to Sign In
          </Link>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <div className="auth-heading">
        <h1>Create Your Account</h1>
        <p className="muted">Start exploring property reports for free</p>
      </div>

      {error && (
        <Alert kind="error" testId="register-error">
          {error}
        </Alert>
      )}

      <form className="form" onSubmit={(event) => void handleSubmit(event)}>
        <div className="field">
          <label htmlFor="register-email">Email Address</label>
          <input
            id="register-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="you@example.com"
            data-testid="register-email"
          />
        </div>
        <PasswordField
          id="register-password"
          label="Password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          placeholder="At least 8 characters"
          testId="register-password"
        />
        <PasswordField
          id="register-confirm-password"
          label="Confirm Password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          autoComplete="new-password"
          placeholder="Repeat your password"
          testId="register-confirm-password"
        />

        <div className="benefits-box">
          <h2>What you get</h2>
          <ul className="check-list">
            {benefits.map((benefit) => (
              <li key={benefit}>
                <Icon name="check" size={16} /> {benefit}
              </li>
            ))}
          </ul>
        </div>

        <button type="submit" className="btn btn-primary btn-block" disabled={submitting} data-testid="register-submit">
          {submitting ? 'Creating Account...' : 'Create Account'}
        </button>
      </form>

      <p className="auth-switch">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
      <div className="auth-back">
        <BackLink />
      </div>
    </AuthLayout>
  );
}
