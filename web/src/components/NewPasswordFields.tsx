import type { usePasswordPair } from '../hooks/usePasswordPair';
import { type FormProblem, fieldState } from '../session/formProblem';
import { PasswordField } from './PasswordField';

type NewPasswordFieldsProps = {
  pair: ReturnType<typeof usePasswordPair>;
  /** The inputs' ids, which are also their test ids: `<idPrefix>-password`, `<idPrefix>-confirm-password`. */
  idPrefix: string;
  /** The first field's label; the second is "Confirm <label>". */
  label?: string;
  /** What is wrong with the form, and the id of the element that says it (fields 'password', 'confirmation'). */
  problem?: FormProblem | null;
  problemId?: string;
};

/** A new password and its confirmation, as chosen on the register, reset and settings screens. */
export function NewPasswordFields({
  pair,
  idPrefix,
  label = 'New Password',
  problem = null,
  problemId = '',
}: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordField
        id={`${idPrefix}-password`}
        label={label}
        autoComplete="new-password"
        placeholder="At least 8 characters"
        value={pair.password}
        onChange={pair.setPassword}
        {...fieldState(problem, 'password', problemId)}
      />
      <PasswordField
        id={`${idPrefix}-confirm-password`}
        label={`Confirm ${label}`}
        autoComplete="new-password"
        placeholder={`Repeat your ${label.toLowerCase()}`}
        value={pair.confirmation}
        onChange={pair.setConfirmation}
        {...fieldState(problem, 'confirmation', problemId)}
      />
    </>
  );
}
