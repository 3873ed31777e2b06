import { type FormEvent, useEffect, useState } from 'react';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { PasswordField } from '../components/PasswordField';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';

export function AdminLoginPage() {
  useDocumentTitle('Admin Access');
  const { adminLogin, error, clearError } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    clearError();
  }, [clearError]);

  function edit(setter: (value: string) => void) {
    return (value: string) => {
      setter(value);
      if (error) clearError();
    };
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    const result = await adminLogin(email, password);
    if (!result.ok) setSubmitting(false);
  }

  return (
    <AuthLayout>
      <div className="auth-heading">
        <span className="icon-badge icon-badge-lg icon-badge-dark">
          <Icon name="shield" size={26} />
        </span>
        <h1>Admin Access</h1>
        <p className="muted">Sign in to manage requests, reports and leads</p>
      </div>
      {error && (
        <Alert kind="error" testId="admin-login-error">
          {error}
        </Alert>
      )}
      <form className="form" onSubmit={(event) => void handleSubmit(event)}>
        <div className="field">
          <label htmlFor="admin-email">Admin Email</label>
          <input
            id="admin-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => edit(setEmail)(event.target.value)}
            placeholder="admin@example.com"
            data-testid="admin-email"
          />
        </div>
        <PasswordField
          id="admin-password"
          label="Password"
          value={password}
          onChange={edit(setPassword)}
          autoComplete="current-password"
          placeholder="Admin password"
          testId="admin-password"
        />
        <button type="submit" className="btn btn-dark btn-block" disabled={submitting} data-testid="admin-login-submit">
          {submitting ? 'Signing In...' : 'Sign In as Admin'}
        </button>
      </form>
      <p className="auth-note">Need help? Contact the system administrator.</p>
      <div className="auth-back">
        <BackLink />
      </div>
    </AuthLayout>
  );
}
