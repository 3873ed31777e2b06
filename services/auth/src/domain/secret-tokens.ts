import { randomBytes } from 'node:crypto';
import { hashToken } from '@homereport/kit';

export { hashToken };

/**
 * A single-use secret for an email link. Only its SHA-256 is stored, so a database dump cannot
 * verify an address or reset a password. 32 random bytes make guessing hopeless, which is why a
 * fast hash is enough here (unlike passwords).
 */
export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}
