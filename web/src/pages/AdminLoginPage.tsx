import { useSearchParams } from 'react-router-dom';
import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { SignInForm, useSignIn } from '../components/SignInForm';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';
import { NEXT_PARAM } from '../session/nextPath';

export function AdminLoginPage() {
  useDocumentTitle('Admin Access');
  const { adminLogin } = useSession();
  // The admin page a guard sent the visitor here from (checked before it is followed).
  const next = useSearchParams()[0].get(NEXT_PARAM);
  const form = useSignIn((email, password) => adminLogin(email, password, next));

  return (
    <AuthLayout>
      <div className="auth-heading">
        <span className="icon-badge icon-badge-lg icon-badge-dark">
          <Icon name="shield" size={26} />
        </span>
        <h1>Admin Access</h1>
        <p className="muted">Sign in to manage requests, reports and leads</p>
      </div>
      {form.problem && (
        <Alert kind="error" testId="admin-login-error" id="admin-login-problem">
          {form.problem.message}
        </Alert>
      )}
      <SignInForm
        form={form}
        emailId="admin-email"
        emailLabel="Admin Email"
        emailAutoComplete="username"
        emailPlaceholder="admin@example.com"
        passwordId="admin-password"
        passwordPlaceholder="Admin password"
        submitLabel="Sign In as Admin"
        submitClassName="btn btn-dark btn-block"
        submitTestId="admin-login-submit"
        problemId="admin-login-problem"
      />
      <p className="auth-note">Need help? Contact the system administrator.</p>
      <div className="auth-back">
        <BackLink />
      </div>
    </AuthLayout>
  );
}
