import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The token of a share link: `<share id>.<expiry, unix seconds in base 36>.<HMAC-SHA256 of both>`.
 * The signature lets the service refuse a made-up or altered token before any database read,
 * and the expiry inside it lets an old link answer 410 even if its record is gone. Whether the
 * link was revoked is not in the token: that lives in the database, so every replica agrees.
 */

/** The key of share tokens: SHARE_LINK_SECRET when set, else derived from the internal secret. */
export function shareTokenKey(shareLinkSecret: string | undefined, internalSecret: string): Buffer {
  const base = shareLinkSecret && shareLinkSecret.length > 0 ? shareLinkSecret : internalSecret;
  // Its own label, so a share token and a file link are never signed with the same key.
  return createHmac('sha256', base).update('homereport:share-links:v1').digest();
}

const signatureOf = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');

/** A fresh share id: 128 random bits, URL-safe. */
export const newShareId = () => randomBytes(16).toString('base64url');

export function signShareToken(key: Buffer, shareId: string, expiresAt: Date): string {
  const body = `${shareId}.${Math.floor(expiresAt.getTime() / 1000).toString(36)}`;
  return `${body}.${signatureOf(key, body)}`;
}

export type ShareTokenCheck =
  | { outcome: 'valid'; shareId: string; expiresAt: Date }
  | { outcome: 'expired'; shareId: string; expiresAt: Date }
  | { outcome: 'forged' };

const TOKEN = /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{43})$/;

/** Whether a token is one we signed (compared in constant time) and still in date. */
export function verifyShareToken(key: Buffer, token: string, now = new Date()): ShareTokenCheck {
  const parts = TOKEN.exec(token);
  if (!parts) return { outcome: 'forged' };
  const [, shareId = '', expiry = '', signature = ''] = parts;
  const expected = Buffer.from(signatureOf(key, `${shareId}.${expiry}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { outcome: 'forged' };
  const expiresAt = new Date(Number.parseInt(expiry, 36) * 1000);
  return { outcome: expiresAt.getTime() <= now.getTime() ? 'expired' : 'valid', shareId, expiresAt };
}
