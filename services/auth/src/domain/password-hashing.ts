import { outsideMongoDeadline } from '@homereport/kit';
import argon2 from 'argon2';

/**
 * argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes), above OWASP's minimum.
 * Stored hashes carry their own parameters, so raising these later only needs `needsRehash`.
 * Hashing and checking do not count against the request's MongoDB deadline (decision 013).
 */
const OPTIONS = { type: argon2.argon2id } as const;

export const hashPassword = (password: string): Promise<string> =>
  outsideMongoDeadline(() => argon2.hash(password, OPTIONS));

export async function passwordMatches(hash: string, password: string): Promise<boolean> {
  try {
    return await outsideMongoDeadline(() => argon2.verify(hash, password));
  } catch {
    // A malformed stored hash is a mismatch, not a 500 that tells an attacker something.
    return false;
  }
}

export const hashNeedsUpgrade = (hash: string): boolean => argon2.needsRehash(hash);

let decoy: Promise<string> | undefined;

/**
 * Spends the same time as a real check when the email is unknown, so response times do not
 * reveal which addresses have accounts.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword('decoy password that matches no account');
  await passwordMatches(await decoy, password);
}
