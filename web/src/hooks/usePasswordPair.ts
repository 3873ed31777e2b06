import { useState } from 'react';
import { checkNewPassword, newPasswordProblem } from '../session/passwordRules';

/** A new password and its confirmation, with the client-side checks run before either is sent. */
export function usePasswordPair() {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  return {
    password,
    setPassword,
    confirmation,
    setConfirmation,
    /** The first failed check as a message, or null when the pair may be sent. */
    check: () => checkNewPassword(password, confirmation),
    /** The same check, naming the field it is about ('password' or 'confirmation'). */
    problem: () => newPasswordProblem(password, confirmation),
    clear: () => {
      setPassword('');
      setConfirmation('');
    },
  };
}
