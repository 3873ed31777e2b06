import { Alert } from '../components/Alert';
import { Icon } from '../components/Icon';
import { SignInForm, useSignIn } from '../components/SignInForm';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';

export function AdminLoginPage() {
  useDocumentTitle('Admin Access');
  const { adminLogin } = useSession();
  const form = useSignIn(adminLogin);

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
