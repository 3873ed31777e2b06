import type { usePasswordPair } from '../hooks/usePasswordPair';
import { type FormProblem, fieldState } from '../session/formProblem';
import { PasswordField } from './PasswordField';

type NewPasswordFieldsProps = {
  pair: ReturnType<typeof usePasswordPair>;
  /** Ids of the two inputs, which are also their test ids. */
  passwordId: string;
  confirmationId: string;
  passwordLabel: string;
  confirmationLabel: string;
  confirmationPlaceholder: string;
  /** What is wrong with the form, and the id of the element that says it (fields 'password', 'confirmation'). */
  problem?: FormProblem | null;
  problemId?: string;
};

/** A new password and its confirmation, as chosen on the register and reset screens. */
export function NewPasswordFields({
  pair,
  passwordId,
  confirmationId,
  passwordLabel,
  confirmationLabel,
  confirmationPlaceholder,
  problem = null,
  problemId = '',
}: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordField
        id={passwordId}
        label={passwordLabel}
        value={pair.password}
        onChange={pair.setPassword}
        autoComplete="new-password"
        placeholder="At least 8 characters"
        testId={passwordId}
        {...fieldState(problem, 'password', problemId)}
      />
      <PasswordField
        id={confirmationId}
        label={confirmationLabel}
        value={pair.confirmation}
        onChange={pair.setConfirmation}
        autoComplete="new-password"
        placeholder={confirmationPlaceholder}
        testId={confirmationId}
        {...fieldState(problem, 'confirmation', problemId)}
      />
    </>
  );
}
