import type { usePasswordPair } from '../hooks/usePasswordPair';
import { PasswordField } from './PasswordField';

type NewPasswordFieldsProps = {
  pair: ReturnType<typeof usePasswordPair>;
  /** Ids of the two inputs, which are also their test ids. */
  passwordId: string;
  confirmationId: string;
  passwordLabel: string;
  confirmationLabel: string;
  confirmationPlaceholder: string;
};

/** A new password and its confirmation, as chosen on the register and reset screens. */
export function NewPasswordFields({
  pair,
  passwordId,
  confirmationId,
  passwordLabel,
  confirmationLabel,
  confirmationPlaceholder,
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
      />
      <PasswordField
        id={confirmationId}
        label={confirmationLabel}
        value={pair.confirmation}
        onChange={pair.setConfirmation}
        autoComplete="new-password"
        placeholder={confirmationPlaceholder}
        testId={confirmationId}
      />
    </>
  );
}
