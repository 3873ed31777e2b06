import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { Alert } from '../components/Alert';
import { ResendConfirmation, useResendVerification } from '../components/ResendVerification';
import { SignInForm, useSignIn } from '../components/SignInForm';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { EMAIL_NOT_VERIFIED, homeOf, useSession } from '../session/SessionProvider';
import { NEXT_PARAM, afterSignIn } from '../session/nextPath';

export function LoginPage() {
  useDocumentTitle(
    'Sign In',
    'Sign in to HomeReport to open your property reports, track your requests and watch ZIP codes.',
  );
  const { login, errorCode, user } = useSession();
  const resend = useResendVerification();
  // The page a guard sent the visitor here from (checked before it is followed).
  const next = useSearchParams()[0].get(NEXT_PARAM);
  const form = useSignIn((email, password) => login(email, password, next), resend.reset);

  const unverified = errorCode === EMAIL_NOT_VERIFIED;
  // Signed in already (or just now): this screen has nothing to offer.
  if (user) return <Navigate to={afterSignIn(next, homeOf(user))} replace />;

  return (
    <AuthLayout>
      <div className="auth-heading">
        <h1>Welcome Back</h1>
        <p className="muted">Sign in to your HomeReport account</p>
      </div>

      {form.problem && (
        <Alert kind="error" testId="login-error" id="login-problem">
          <p>{form.problem.message}</p>
          {unverified && resend.state.kind !== 'sent' && (
            <button
              type="button"
              className="btn btn-secondary btn-sm alert-action"
              onClick={() => void resend.send(form.email)}
              disabled={resend.state.kind === 'sending'}
              data-testid="resend-verification"
            >
              {resend.state.kind === 'sending' ? 'Sending...' : 'Resend verification email'}
            </button>
          )}
        </Alert>
      )}
      {resend.state.kind === 'sent' && <ResendConfirmation email={resend.state.email} />}
      {resend.state.kind === 'failed' && <Alert kind="error">{resend.state.error}</Alert>}

      <SignInForm
        form={form}
        emailId="login-email"
        emailLabel="Email Address"
        emailAutoComplete="email"
        emailPlaceholder="you@example.com"
        passwordId="login-password"
        passwordPlaceholder="Your password"
        submitLabel="Sign In"
        submitClassName="btn btn-primary btn-block"
        submitTestId="login-submit"
        problemId="login-problem"
      >
        <div className="form-row-end">
          <Link to="/forgot-password" className="link-sm">
            Forgot password?
          </Link>
        </div>
      </SignInForm>

      <p className="auth-switch">
        Don't have an account? <Link to="/register">Sign up</Link>
      </p>
      <div className="auth-back">
        <BackLink />
      </div>
    </AuthLayout>
  );
}
