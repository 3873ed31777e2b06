/** The sentence shown for an address the browser accepts but that cannot receive mail (`a@b`). */
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address, such as name@example.com.';

/**
 * The same shape the server checks (a name, an @ and a domain with a dot), run before sending so
 * the person reads a sentence instead of a refusal; null when the address looks usable.
 */
export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed.length > 254 || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(trimmed)) return INVALID_EMAIL_MESSAGE;
  return null;
}
