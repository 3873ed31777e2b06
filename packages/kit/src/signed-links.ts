import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Download links that carry their own authorization: `/api/files/<key>?expires=<unix seconds>&signature=<hmac>`.
 * The requests service signs them when it shows a report; the files service verifies them before
 * streaming the object. Both derive the same key from the shared secret, so no call is needed.
 */
export const FILES_PATH_PREFIX = '/api/files/';

/** The HMAC key for file links: FILE_LINK_SECRET when set, else derived from the internal secret. */
export function fileLinkKey(fileLinkSecret: string | undefined, internalSecret: string): Buffer {
  const base = fileLinkSecret && fileLinkSecret.length > 0 ? fileLinkSecret : internalSecret;
  return createHmac('sha256', base).update('homereport:file-links:v1').digest();
}

const signatureOf = (key: Buffer, objectKey: string, expires: number) =>
  createHmac('sha256', key).update(`${objectKey}\n${expires}`).digest('base64url');

export function signFileLink(key: Buffer, objectKey: string, ttlSeconds: number, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + ttlSeconds;
  return `${FILES_PATH_PREFIX}${objectKey}?expires=${expires}&signature=${signatureOf(key, objectKey, expires)}`;
}

export type LinkCheck = 'valid' | 'expired' | 'forged';

/** Whether a link's signature is ours and still in date. Compares in constant time. */
export function verifyFileLink(
  key: Buffer,
  objectKey: string,
  expiresText: string,
  signature: string,
  now = Date.now(),
): LinkCheck {
  if (!/^[0-9]{1,16}$/.test(expiresText)) return 'forged';
  const expires = Number(expiresText);
  const expected = Buffer.from(signatureOf(key, objectKey, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
  return expires * 1000 < now ? 'expired' : 'valid';
}
