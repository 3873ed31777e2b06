import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { AuthHeading } from '../components/AuthScreen';
import { PendingButton, ProblemAlert } from '../components/Form';
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
      <AuthHeading title="Welcome Back">Sign in to your HomeReport account</AuthHeading>

      <ProblemAlert problem={form.problem} id="login-problem" testId="login-error">
        {unverified && resend.state.kind !== 'sent' && (
          <PendingButton
            type="button"
            pending={resend.state.kind === 'sending'}
            pendingLabel="Sending..."
            className="btn btn-secondary btn-sm alert-action"
            onClick={() => void resend.send(form.email)}
            testId="resend-verification"
          >
            Resend verification email
          </PendingButton>
        )}
      </ProblemAlert>
      {resend.state.kind === 'sent' && <ResendConfirmation email={resend.state.email} />}
      <ProblemAlert problem={resend.state.kind === 'failed' && resend.state.error} testId="login-resend-error" />

      <SignInForm
        form={form}
        emailId="login-email"
        passwordId="login-password"
        passwordPlaceholder="Your password"
        submitLabel="Sign In"
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
