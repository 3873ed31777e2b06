import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { type LoginResult, useSession } from '../session/SessionProvider';
import { EmailField } from './EmailField';
import { PasswordField } from './PasswordField';

/**
 * Email, password and submitting state of a sign-in screen. Any edit clears the session's error;
 * `onChange` runs on every edit and on submit so a screen can drop messages of its own.
 */
export function useSignIn(signIn: (email: string, password: string) => Promise<LoginResult>, onChange?: () => void) {
  const { error, clearError } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);

  // An error left by another sign-in screen does not belong to this one.
  useEffect(() => {
    clearError();
  }, [clearError]);

  function edit(setter: (value: string) => void) {
    return (value: string) => {
      setter(value);
      if (error) clearError();
      onChange?.();
    };
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    onChange?.();
    const result = await signIn(email, password);
    if (!result.ok) setSubmitting(false);
  }

  return { email, setEmail: edit(setEmail), password, setPassword: edit(setPassword), submitting, submit };
}

type SignInFormProps = {
  form: ReturnType<typeof useSignIn>;
  /** Ids of the inputs, which are also their test ids. */
  emailId: string;
  passwordId: string;
  emailLabel: string;
  emailAutoComplete: 'email' | 'username';
  emailPlaceholder: string;
  passwordPlaceholder: string;
  submitLabel: string;
  submitClassName: string;
  submitTestId: string;
  /** Shown between the password and the submit button. */
  children?: ReactNode;
};

/** The email and password form shared by the user and admin sign-in screens. */
export function SignInForm({
  form,
  emailId,
  passwordId,
  emailLabel,
  emailAutoComplete,
  emailPlaceholder,
  passwordPlaceholder,
  submitLabel,
  submitClassName,
  submitTestId,
  children,
}: SignInFormProps) {
  return (
    <form className="form" onSubmit={(event) => void form.submit(event)}>
      <EmailField
        id={emailId}
        label={emailLabel}
        value={form.email}
        onChange={form.setEmail}
        autoComplete={emailAutoComplete}
        placeholder={emailPlaceholder}
        testId={emailId}
      />
      <PasswordField
        id={passwordId}
        label="Password"
        value={form.password}
        onChange={form.setPassword}
        autoComplete="current-password"
        placeholder={passwordPlaceholder}
        testId={passwordId}
      />
      {children}
      <button type="submit" className={submitClassName} disabled={form.submitting} data-testid={submitTestId}>
        {form.submitting ? 'Signing In...' : submitLabel}
      </button>
    </form>
  );
}
