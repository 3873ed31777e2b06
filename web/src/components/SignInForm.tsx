import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { type LoginResult, useSession } from '../session/SessionProvider';
import { emailProblem } from '../session/emailRules';
import { type FormProblem, fieldState } from '../session/formProblem';
import { EmailField } from './EmailField';
import { PendingButton } from './Form';
import { PasswordField } from './PasswordField';

/**
 * Email, password and submitting state of a sign-in screen. Any edit clears the problem shown;
 * `onChange` runs on every edit and on submit so a screen can drop messages of its own. An
 * address no mail server could deliver to is refused here, in a sentence, before anything is sent.
 */
export function useSignIn(signIn: (email: string, password: string) => Promise<LoginResult>, onChange?: () => void) {
  const { error, errorFields, clearError } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [localProblem, setLocalProblem] = useState<FormProblem | null>(null);

  // An error left by another sign-in screen does not belong to this one.
  useEffect(() => {
    clearError();
  }, [clearError]);

  function edit(setter: (value: string) => void) {
    return (value: string) => {
      setter(value);
      if (error) clearError();
      setLocalProblem(null);
      onChange?.();
    };
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onChange?.();
    const badEmail = emailProblem(email);
    if (badEmail) {
      clearError();
      setLocalProblem({ message: badEmail, fields: ['email'] });
      return;
    }
    setLocalProblem(null);
    setSubmitting(true);
    const result = await signIn(email.trim(), password);
    if (!result.ok) setSubmitting(false);
  }

  const problem: FormProblem | null = localProblem ?? (error ? { message: error, fields: errorFields } : null);
  return { email, setEmail: edit(setEmail), password, setPassword: edit(setPassword), submitting, submit, problem };
}

type SignInFormProps = {
  form: ReturnType<typeof useSignIn>;
  /** Ids of the inputs, which are also their test ids. */
  emailId: string;
  passwordId: string;
  /** EmailField's, unless told. */
  emailLabel?: string;
  emailAutoComplete?: 'email' | 'username';
  emailPlaceholder?: string;
  passwordPlaceholder: string;
  submitLabel: string;
  submitClassName?: string;
  submitTestId: string;
  /** Id of the element showing `form.problem`, which the fields in error point at. */
  problemId: string;
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
  problemId,
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
        {...fieldState(form.problem, 'email', problemId)}
      />
      <PasswordField
        id={passwordId}
        label="Password"
        value={form.password}
        onChange={form.setPassword}
        autoComplete="current-password"
        placeholder={passwordPlaceholder}
        {...fieldState(form.problem, 'password', problemId)}
      />
      {children}
      <PendingButton
        pending={form.submitting}
        pendingLabel="Signing In..."
        className={submitClassName}
        testId={submitTestId}
      >
        {submitLabel}
      </PendingButton>
    </form>
  );
}
