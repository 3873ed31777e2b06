import type { VerifyEmailReply } from '@homereport/contracts';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api/client';
import { EmailField } from '../components/EmailField';
import { PendingButton, ProblemAlert } from '../components/Form';
import { Icon } from '../components/Icon';
import { ResendConfirmation, useResendVerification } from '../components/ResendVerification';
import { ResultPanel } from '../components/ResultPanel';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { Spinner } from '../components/Spinner';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { emailProblem } from '../session/emailRules';
import { useTokenFromAddress } from '../session/useTokenFromAddress';

type VerifyState =
  | { kind: 'verifying' }
  | { kind: 'verified'; message: string; already: boolean }
  | { kind: 'failed'; error: string };

const MISSING_TOKEN = 'This verification link is incomplete. Request a new verification email below.';

export function VerifyEmailPage() {
  useDocumentTitle('Verify Email', 'Confirm the email address of your new HomeReport account.');
  const token = useTokenFromAddress();
  const [state, setState] = useState<VerifyState>(
    token ? { kind: 'verifying' } : { kind: 'failed', error: MISSING_TOKEN },
  );
  // A verification token works once; React's development double-run of effects must not spend it twice.
  const requested = useRef(false);

  useEffect(() => {
    if (!token || requested.current) return;
    requested.current = true;
    void api
      .post<VerifyEmailReply>(
        '/api/auth/verify-email',
        { token },
        { token: null, fallbackError: 'This verification link is invalid or has expired.' },
      )
      .then((result) => {
        setState(
          result.ok
            ? {
                kind: 'verified',
                message: result.data?.message ?? 'Your email address has been verified.',
                // Opened a second time: the account is verified, nothing failed.
                already: result.data?.alreadyVerified === true,
              }
            : { kind: 'failed', error: result.error },
        );
      });
  }, [token]);

  return (
    <AuthLayout>
      {state.kind === 'verifying' && (
        <ResultPanel
          testId="verify-pending"
          icon={<Spinner label="Verifying your email" />}
          title="Verifying Your Email"
        >
          <p className="muted">One moment while we confirm your email address.</p>
        </ResultPanel>
      )}
      {state.kind === 'verified' && (
        <ResultPanel
          testId={state.already ? 'verify-already' : 'verify-success'}
          icon="checkCircle"
          title={state.already ? 'Email Already Verified' : 'Email Verified!'}
          link={{ to: '/login', label: 'Sign In' }}
        >
          <p>{state.message}</p>
          <p className="muted">Your account is active. Sign in to start exploring property reports.</p>
        </ResultPanel>
      )}
      {state.kind === 'failed' && <VerificationFailed error={state.error} />}
    </AuthLayout>
  );
}

function VerificationFailed({ error }: { error: string }) {
  const [email, setEmail] = useState('');
  const resend = useResendVerification();

  const [badEmail, setBadEmail] = useState<string | null>(null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = emailProblem(email);
    setBadEmail(problem);
    if (!problem) void resend.send(email.trim());
  }

  const failedMessage = badEmail ?? (resend.state.kind === 'failed' ? resend.state.error : null);

  return (
    <div data-testid="verify-failed">
      <div className="auth-heading">
        <span className="icon-badge icon-badge-lg icon-badge-red">
          <Icon name="alert" size={28} />
        </span>
        <h1>Verification Failed</h1>
      </div>
      <ProblemAlert problem={error} testId="verify-error" />

      {resend.state.kind === 'sent' ? (
        <ResendConfirmation email={resend.state.email} />
      ) : (
        <form className="form" onSubmit={handleSubmit}>
          <p className="muted">Enter your email address and we will send you a new verification link.</p>
          <ProblemAlert problem={failedMessage} id="resend-problem" testId="resend-error" />
          <EmailField
            id="resend-email"
            value={email}
            onChange={(value) => {
              setEmail(value);
              setBadEmail(null);
            }}
            testId="resend-email"
            invalid={failedMessage !== null}
            describedBy={failedMessage ? 'resend-problem' : undefined}
          />
          <PendingButton pending={resend.state.kind === 'sending'} pendingLabel="Sending..." testId="resend-submit">
            Resend Verification Email
          </PendingButton>
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
