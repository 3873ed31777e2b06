import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { KEY_NAME_MAX_LENGTH } from '@homereport/contracts';

/**
 * Webhook key rules. The secret is 32 bytes from the CSPRNG, URL-safe, shown once; only its
 * SHA-256 is stored. A fast hash is right here (unlike passwords): the secret has 256 bits of
 * entropy, so there is nothing to guess, and every inbound lead must be checked quickly.
 */

const WEBHOOK_KEY_PREFIX = 'whk_';

export function generateWebhookSecret(): string {
  return `${WEBHOOK_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashWebhookSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares two hex SHA-256 digests in constant time. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

type KeyNameCheck = { ok: true; name: string } | { ok: false; message: string };

/** A key name is its identifier: trimmed, Unicode-normalised, non-blank, bounded, printable. */
export function checkKeyName(input: string): KeyNameCheck {
  const name = input.normalize('NFC').trim();
  if (name === '') return { ok: false, message: 'Key name must not be blank.' };
  if ([...name].length > KEY_NAME_MAX_LENGTH)
    return { ok: false, message: `Key name must be at most ${KEY_NAME_MAX_LENGTH} characters.` };
  if (/\p{Cc}/u.test(name)) return { ok: false, message: 'Key name must not contain control characters.' };
  return { ok: true, name };
}

/**
 * A short fixed-width tag of a key name, used where the name itself would be awkward: inside
 * field paths of the counters and index documents. Readers always compare the real key name,
 * so even a (2^-64) collision could not show one key's leads under another.
 */
export function keyTag(keyName: string): string {
  return createHash('sha256').update(keyName, 'utf8').digest('hex').slice(0, 16);
}
