import { MFA_REQUIRED } from '@homereport/contracts';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AuthHeading } from '../components/AuthScreen';
import { TextField } from '../components/Field';
import { PendingButton, ProblemAlert } from '../components/Form';
import { SignInForm, useSignIn } from '../components/SignInForm';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';
import { NEXT_PARAM } from '../session/nextPath';
import '../features/admin/security.css';

export function AdminLoginPage() {
  useDocumentTitle(
    'Admin Access',
    'Sign-in for HomeReport staff: the admin dashboard, coverage requests, report uploads and leads.',
  );
  const { adminLogin, error, clearError } = useSession();
  // The admin page a guard sent the visitor here from (checked before it is followed).
  const next = useSearchParams()[0].get(NEXT_PARAM);
  // After a right password, an admin with two-step sign-in is asked for the code.
  const [askCode, setAskCode] = useState(false);
  const form = useSignIn(async (email, password) => {
    const result = await adminLogin(email, password, next);
    if (!result.ok && result.code === MFA_REQUIRED) {
      clearError();
      setAskCode(true);
    }
    return result;
  });

  return (
    <AuthLayout>
      <AuthHeading icon="shield" dark title="Admin Access">
        Sign in to manage requests, reports and leads
      </AuthHeading>
      {askCode ? (
        <CodeStep
          error={error}
          onEdit={clearError}
          submit={(factor) => adminLogin(form.email.trim(), form.password, next, factor)}
          back={() => {
            clearError();
            setAskCode(false);
          }}
        />
      ) : (
        <>
          <ProblemAlert problem={form.problem} id="admin-login-problem" testId="admin-login-error" />
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
        </>
      )}
      <p className="auth-note">Need help? Contact the system administrator.</p>
      <div className="auth-back">
        <BackLink />
      </div>
    </AuthLayout>
  );
}

type Factor = { code: string } | { recovery_code: string };

/** The second step: the 6-digit code from the authenticator app, or one recovery code. */
function CodeStep({
  error,
  onEdit,
  submit,
  back,
}: {
  error: string | null;
  onEdit: () => void;
  submit: (factor: Factor) => Promise<{ ok: boolean }>;
  back: () => void;
}) {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [submitting, setSubmitting] = useState(false);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    const result = await submit(recovery ? { recovery_code: value.trim() } : { code: value.replace(/\s/g, '') });
    if (!result.ok) setSubmitting(false);
  }

  return (
    <form className="form" onSubmit={send} noValidate>
      <ProblemAlert problem={error} id="admin-code-problem" testId="admin-login-error" />
      <TextField
        id="admin-mfa-code"
        label={recovery ? 'Recovery code' : 'Authentication code'}
        hint={
          recovery
            ? 'One of the recovery codes you saved when you set up two-step sign-in. Each works once.'
            : 'The 6-digit code your authenticator app shows for HomeReport.'
        }
        value={value}
        onChange={(next) => {
          setValue(next);
          if (error) onEdit();
        }}
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        // The API's limits (auth's admin-login body): 12 for a code, 40 for a recovery code.
        maxLength={recovery ? 40 : 12}
        // Focused at once: the one field of this step, reached by submitting the previous one.
        autoFocus
        required
        invalid={Boolean(error)}
        describedBy={error ? 'admin-code-problem' : undefined}
      />
      <PendingButton
        pending={submitting}
        pendingLabel="Verifying..."
        disabled={value.trim() === ''}
        className="btn btn-dark btn-block"
        testId="admin-mfa-submit"
      >
        Verify and Sign In
      </PendingButton>
      <div className="admin-code-links">
        <button
          type="button"
          className="btn btn-ghost"
          data-testid="admin-mfa-use-recovery"
          onClick={() => {
            setRecovery(!recovery);
            setValue('');
            onEdit();
          }}
        >
          {recovery ? 'Use a code from the app' : 'Use a recovery code'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={back}>
          Start over
        </button>
      </div>
    </form>
  );
}
