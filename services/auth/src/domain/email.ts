/** Addresses are stored and compared in this form, so `Ann@Example.com` and `ann@example.com` are one account. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** RFC 5321 limits a forward path to 254 characters. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * A plain shape check for input that does not pass through the HTTP schemas (the create-admin
 * command). The HTTP edge uses the JSON Schema `email` format.
 */
export function looksLikeEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
}
