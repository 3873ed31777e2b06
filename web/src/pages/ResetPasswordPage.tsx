import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api/client';
import type { MessageResponse } from '../api/types';
import { AuthHeading, AuthResult } from '../components/AuthScreen';
import { PendingButton, ProblemAlert } from '../components/Form';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { AuthLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useFormSend } from '../hooks/useFormSend';
import { usePasswordPair } from '../hooks/usePasswordPair';
import type { FormProblem } from '../session/formProblem';
import { useTokenFromAddress } from '../session/useTokenFromAddress';

/** What is wrong, the fields it is about, and whether it calls for a new link (a refused token). */
type Problem = FormProblem & { fromServer: boolean };
const PROBLEM_ID = 'reset-password-problem';

export function ResetPasswordPage() {
  useDocumentTitle(
    'Reset Password',
    'Choose a new password for your HomeReport account with the link from your email.',
  );
  const token = useTokenFromAddress();
  const passwords = usePasswordPair();
  const { problem, setProblem, submitting, submit } = useFormSend<Problem>(
    token ? null : { message: 'This password reset link is incomplete.', fields: [], fromServer: true },
  );
  const [done, setDone] = useState(false);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(event, {
      check: () => {
        const check = passwords.problem();
        return check ? { message: check.message, fields: [check.field], fromServer: false } : null;
      },
      send: () =>
        api.post<MessageResponse>(
          '/api/auth/reset-password',
          { token, password: passwords.password },
          { token: null, fallbackError: 'Failed to reset password' },
        ),
      settle: (result) => {
        if (result.ok) {
          setDone(true);
          passwords.clear();
        } else {
          // A weak password (400 naming the field) is about the field; a refused token needs a new link.
          const aboutPassword = result.fields?.includes('password') ?? false;
          setProblem({
            message: result.error,
            fields: aboutPassword ? ['password'] : [],
            fromServer: !result.networkError && !aboutPassword,
          });
        }
      },
    });

  if (done) {
    return (
      <AuthResult testId="reset-password-success" icon="checkCircle" title="Password Changed" signIn="Sign In">
        <p>Your password has been changed and all other sessions were signed out.</p>
        <p className="muted">Sign in with your new password to continue.</p>
      </AuthResult>
    );
  }

  return (
    <AuthLayout>
      <AuthHeading icon="lock" title="Choose a New Password">
        Your new password must be at least 8 characters long.
      </AuthHeading>
      <ProblemAlert problem={problem} id={PROBLEM_ID} testId="reset-password-error">
        {problem?.fromServer && (
          <p>
            <Link to="/forgot-password">Request a new reset link</Link>
          </p>
        )}
      </ProblemAlert>
      <form className="form" onSubmit={(event) => void handleSubmit(event)}>
        <NewPasswordFields pair={passwords} idPrefix="reset" problem={problem} problemId={PROBLEM_ID} />
        <PendingButton pending={submitting} pendingLabel="Saving..." disabled={!token} testId="reset-password-submit">
          Reset Password
        </PendingButton>
      </form>
      <p className="auth-switch">
        <Link to="/login">Back to Sign In</Link>
      </p>
    </AuthLayout>
  );
}
