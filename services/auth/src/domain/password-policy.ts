import { readFileSync } from 'node:fs';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@homereport/contracts';

export const MIN_PASSWORD_LENGTH = PASSWORD_MIN_LENGTH;
/** Long enough for any passphrase, short enough that hashing it is not a denial of service. */
export const MAX_PASSWORD_LENGTH = PASSWORD_MAX_LENGTH;

const TOO_COMMON = 'This password is too common. Please choose another.';

/**
 * Passwords attackers try first (ASVS 2.1.7), lower case, one a line, read once and kept as the
 * file's one string: a check looks for the password as a whole line. Not a Set of the 18,000
 * lines: that held 1.2 MB of heap in every auth process for a check made only when a password is
 * chosen, where a scan of this 170 kB string takes well under a millisecond (next to argon2's
 * half second). See data/README.md for where the list comes from.
 */
const commonLines = `\n${readFileSync(new URL('../../data/common-passwords.txt', import.meta.url), 'utf8')}\n`;

const isCommonPassword = (password: string) => {
  const lower = password.toLowerCase();
  // A line holds no line break, and no line is empty.
  return lower.length > 0 && !lower.includes('\n') && commonLines.includes(`\n${lower}\n`);
};

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
