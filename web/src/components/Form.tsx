import { type ButtonHTMLAttributes, type ReactNode, useState } from 'react';
import { type FormProblem, fieldState } from '../session/formProblem';
import { Alert } from './Alert';

/**
 * The pieces every form of the app is made of, beside its fields (./Field.tsx, ./EmailField.tsx,
 * ./PasswordField.tsx): the problem said once above the fields, the fields it names marked and
 * pointed at it, and the button that says when the form is sending.
 */

/**
 * A refusal or failure, said once (a form's problem, web/src/api/fieldMessages.ts, or a failed
 * call's error); the fields it names point at `id`. Nothing while there is none. `children`
 * follow the message (what to do about it).
 */
export function ProblemAlert({
  problem,
  id,
  testId,
  children,
}: {
  problem: { message: string } | string | false | null | undefined;
  id?: string;
  testId: string;
  children?: ReactNode;
}) {
  if (!problem) return null;
  return (
    <Alert kind="error" testId={testId} id={id}>
      {typeof problem === 'string' ? problem : problem.message}
      {children}
    </Alert>
  );
}

type PendingButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> & {
  /** While true, the button is disabled and says `pendingLabel`. */
  pending: boolean;
  pendingLabel: ReactNode;
  testId: string;
  children: ReactNode;
};

/** A form's submit button (or, with `type="button"`, any action's): its label, and what it says while it works. */
export function PendingButton({
  pending,
  pendingLabel,
  testId,
  disabled = false,
  type = 'submit',
  className = 'btn btn-primary btn-block',
  children,
  ...rest
}: PendingButtonProps) {
  return (
    <button {...rest} type={type} className={className} disabled={disabled || pending} data-testid={testId}>
      {pending ? pendingLabel : children}
    </button>
  );
}

/**
 * A form's text values, and the props that wire one to its field, `{...field('email')}`: id
 * `<idPrefix>-<name>`, name, value, edits, the API's limit for it, and the marks of the problem
 * shown in the alert `problemId` when it names the field.
 */
export function useFormFields<T extends Record<string, string>>(
  initial: T | (() => T),
  options: {
    idPrefix: string;
    problem: FormProblem | null;
    problemId: string;
    maxLength?: Partial<Record<keyof T, number>>;
  },
) {
  const [values, setValues] = useState<T>(initial);
  const field = (name: keyof T & string) => ({
    id: `${options.idPrefix}-${name}`,
    name,
    value: values[name],
    onChange: (value: string) => setValues((current) => ({ ...current, [name]: value })),
    maxLength: options.maxLength?.[name],
    ...fieldState(options.problem, name, options.problemId),
  });
  return { values, setValues, field };
}
