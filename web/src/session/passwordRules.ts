export const MIN_PASSWORD_LENGTH = 8;

/** The client-side checks of spec section 5, in the order they are reported; null when both pass. */
export function checkNewPassword(password: string, confirmation: string): string | null {
  if (password !== confirmation) return 'Passwords do not match';
  if (password.length < MIN_PASSWORD_LENGTH) return 'Password must be at least 8 characters long';
  return null;
}

/** The same checks, naming the field each problem is about: the password, or its confirmation. */
export function newPasswordProblem(
  password: string,
  confirmation: string,
): { message: string; field: 'password' | 'confirmation' } | null {
  const message = checkNewPassword(password, confirmation);
  if (!message) return null;
  return { message, field: password !== confirmation ? 'confirmation' : 'password' };
}
