import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api/client';
import type { MessageResponse } from '../api/types';
import { AuthHeading, AuthResult } from '../components/AuthScreen';
import { EmailField } from '../components/EmailField';
import { PendingButton, ProblemAlert } from '../components/Form';
import { AuthLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useFormSend } from '../hooks/useFormSend';
import { emailProblem } from '../session/emailRules';
import { fieldState, problemFrom } from '../session/formProblem';

const PROBLEM_ID = 'forgot-password-problem';

export function ForgotPasswordPage() {
  useDocumentTitle(
    'Forgot Password',
    'Forgot your HomeReport password? Enter your email address and we send you a link to choose a new one.',
  );
  const [email, setEmail] = useState('');
  const { problem, setProblem, submitting, submit } = useFormSend();
  const [sentTo, setSentTo] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(event, {
      check: () => {
        const badEmail = emailProblem(email);
        return badEmail ? { message: badEmail, fields: ['email'] } : null;
      },
      send: () =>
        api.post<MessageResponse>(
          '/api/auth/forgot-password',
          { email: email.trim() },
          { token: null, fallbackError: 'Failed to send the reset link. Please try again.' },
        ),
      // Asked again within the cool-down (429), the server says when to try again, for any address.
      settle: (result) => {
        if (result.ok) setSentTo(email.trim());
        else setProblem(problemFrom(result, result.status === 429 ? [] : ['email']));
      },
    });

  if (sentTo) {
    return (
      <AuthResult testId="forgot-password-sent" icon="mail" title="Check Your Email" signIn="Back to Sign In">
        <p>
          If an account exists for <strong>{sentTo}</strong>, we sent a link to reset your password. The link expires in
          1 hour.
        </p>
      </AuthResult>
    );
  }

  return (
    <AuthLayout>
      <AuthHeading icon="lock" title="Forgot Your Password?">
        Enter the email address of your account and we will send you a link to choose a new one.
      </AuthHeading>
      <ProblemAlert problem={problem} id={PROBLEM_ID} testId="forgot-password-error" />
      <form className="form" onSubmit={(event) => void handleSubmit(event)}>
        <EmailField
          id="forgot-email"
          value={email}
          onChange={(value) => {
            setEmail(value);
            setProblem(null);
          }}
          testId="forgot-password-email"
          {...fieldState(problem, 'email', PROBLEM_ID)}
        />
        <PendingButton pending={submitting} pendingLabel="Sending..." testId="forgot-password-submit">
          Send Reset Link
        </PendingButton>
      </form>
      <p className="auth-switch">
        Remembered it? <Link to="/login">Back to Sign In</Link>
      </p>
    </AuthLayout>
  );
}
