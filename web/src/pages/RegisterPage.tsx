import { type FormEvent, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { api } from '../api/client';
import type { MessageResponse } from '../api/types';
import { AuthHeading, AuthResult } from '../components/AuthScreen';
import { CheckList } from '../components/CheckList';
import { EmailField } from '../components/EmailField';
import { PendingButton, ProblemAlert } from '../components/Form';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { AuthLayout, BackLink } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useFormSend } from '../hooks/useFormSend';
import { usePasswordPair } from '../hooks/usePasswordPair';
import { homeOf, useSession } from '../session/SessionProvider';
import { emailProblem } from '../session/emailRules';
import { fieldState, problemFrom } from '../session/formProblem';

const benefits = [
  '10 free report credits per month',
  'Access to ZIP code analyses',
  'Request tracking',
  'Email notifications',
];

const PROBLEM_ID = 'register-problem';

export function RegisterPage() {
  useDocumentTitle(
    'Create Account',
    'Create a free HomeReport account: 10 report credits a month, ZIP code analyses, request tracking and email alerts.',
  );
  const { user } = useSession();
  const [email, setEmail] = useState('');
  const passwords = usePasswordPair();
  const { problem, setProblem, submitting, submit } = useFormSend();
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(event, {
      check: () => {
        const badEmail = emailProblem(email);
        if (badEmail) return { message: badEmail, fields: ['email'] };
        const badPassword = passwords.problem();
        return badPassword ? { message: badPassword.message, fields: [badPassword.field] } : null;
      },
      send: () =>
        api.post<MessageResponse>(
          '/api/auth/register',
          { email: email.trim(), password: passwords.password },
          { token: null, fallbackError: 'Registration failed' },
        ),
      settle: (result) => {
        if (result.ok) {
          setRegisteredEmail(email.trim());
          passwords.clear();
        } else {
          // A taken address (409) is about the email field.
          setProblem(problemFrom(result, result.status === 409 ? ['email'] : []));
        }
      },
    });

  // Signed in already: an account screen has nothing to offer.
  if (user && !registeredEmail) return <Navigate to={homeOf(user)} replace />;

  if (registeredEmail) {
    return (
      <AuthResult testId="register-success" icon="mail" title="Check Your Email" signIn="Go to Sign In">
        <p>
          We sent a verification email to <strong>{registeredEmail}</strong>.
        </p>
        <p className="muted">
          You must verify your email address before you can sign in. Open the link in the email to activate your
          account.
        </p>
      </AuthResult>
    );
  }

  return (
    <AuthLayout>
      <AuthHeading title="Create Your Account">Start exploring property reports for free</AuthHeading>

      <ProblemAlert problem={problem} id={PROBLEM_ID} testId="register-error" />

      <form className="form" onSubmit={(event) => void handleSubmit(event)}>
        <EmailField
          id="register-email"
          value={email}
          onChange={setEmail}
          {...fieldState(problem, 'email', PROBLEM_ID)}
        />
        <NewPasswordFields
          pair={passwords}
          idPrefix="register"
          label="Password"
          problem={problem}
          problemId={PROBLEM_ID}
        />

        <div className="benefits-box">
          <h2>What you get</h2>
          <CheckList items={benefits} size={16} />
        </div>

        <PendingButton pending={submitting} pendingLabel="Creating Account..." testId="register-submit">
          Create Account
        </PendingButton>
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
