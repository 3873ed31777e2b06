import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';

/**
 * Secrets that must travel in an event for its one consumer (a verification or reset token for
 * the notifications service), sealed with AES-256-GCM under a key only the producer and that
 * consumer hold. Kafka keeps events for days and anyone who can read a topic (or its
 * dead-letter copy) sees their payload; a sealed token is useless to them.
 *
 * `context` is bound into the seal (as authenticated data), so a token sealed for one purpose
 * and user (`password-reset:<userId>`) does not open as another.
 */
const VERSION = 'v1';

/** The setting that holds the key: 64 hex characters (32 random bytes), e.g. `openssl rand -hex 32`. */
export const EventSecretKeyConfig = {
  EVENT_SECRET_KEY: Type.String({
    pattern: '^[0-9a-fA-F]{64}$',
    description: 'AES-256 key (64 hex characters) sealing the tokens that events carry.',
  }),
};

function keyBytes(hexKey: string): Buffer {
  const key = Buffer.from(hexKey, 'hex');
  if (key.length !== 32) throw new Error('EVENT_SECRET_KEY must be 64 hex characters');
  return key;
}

export function sealSecret(hexKey: string, secret: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyBytes(hexKey), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    body.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

/** The secret inside `sealed`; throws when it was sealed under another key or context, or was altered. */
export function openSecret(hexKey: string, sealed: string, context: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !body || !tag) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyBytes(hexKey), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
