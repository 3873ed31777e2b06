import type { ReactNode } from 'react';
import { type FormProblem, fieldState } from '../session/formProblem';
import { Alert } from './Alert';

/**
 * The pieces every form of the app is made of, beside its fields (./Field.tsx, ./EmailField.tsx,
 * ./PasswordField.tsx): the problem said once above the fields, the fields it names marked and
 * pointed at it, and the submit button that says when the form is sending.
 */

/** The form's problem (a refusal's sentences, web/src/api/fieldMessages.ts), above its fields. */
export function FormProblemAlert({ problem, id, testId }: { problem: FormProblem | null; id: string; testId: string }) {
  if (!problem) return null;
  return (
    <Alert kind="error" testId={testId} id={id}>
      {problem.message}
    </Alert>
  );
}

/** The attributes of a field the problem may name: `marks('email')` marks it and points it at the alert. */
export const problemMarks = (problem: FormProblem | null, alertId: string) => (field: string) =>
  fieldState(problem, field, alertId);

/** A form's submit button: its label, and what it says while the form is sending. */
export function SubmitButton({
  sending,
  sendingLabel,
  disabled = false,
  testId,
  children,
}: {
  sending: boolean;
  sendingLabel: string;
  disabled?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className="btn btn-primary btn-block" disabled={disabled || sending} data-testid={testId}>
      {sending ? sendingLabel : children}
    </button>
  );
}
