import { readFileSync } from 'node:fs';

export const MIN_PASSWORD_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing it is not a denial of service. */
export const MAX_PASSWORD_LENGTH = 200;

const TOO_COMMON = 'This password is too common. Please choose another.';

/**
 * Passwords attackers try first (ASVS 2.1.7), lower case, read once: a set lookup per check.
 * See data/README.md for where the list comes from.
 */
const common: ReadonlySet<string> = new Set(
  readFileSync(new URL('../../data/common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0),
);

const isCommonPassword = (password: string) => common.has(password.toLowerCase());

/** Why a new password is refused, in words for the person choosing it; null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`;
  }
  if (password.trim().length === 0) return 'Password must not be only spaces.';
  if (isCommonPassword(password)) return TOO_COMMON;
  return null;
}
