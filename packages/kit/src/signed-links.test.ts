import { describe, expect, it } from 'vitest';
import { fileLinkKey, signFileLink, verifyFileLink } from './signed-links.js';

const key = fileLinkKey(undefined, 'an internal secret of some length');
const parse = (link: string) => {
  const url = new URL(link, 'http://x');
  return {
    objectKey: url.pathname.replace('/api/files/', ''),
    expires: url.searchParams.get('expires') ?? '',
    signature: url.searchParams.get('signature') ?? '',
  };
};

describe('signed file links', () => {
  it('verifies a link it signed until it expires', () => {
    const now = Date.UTC(2026, 0, 1);
    const { objectKey, expires, signature } = parse(signFileLink(key, 'req1/report-abc', 900, now));
    expect(objectKey).toBe('req1/report-abc');
    expect(verifyFileLink(key, objectKey, expires, signature, now + 899_000)).toBe('valid');
    expect(verifyFileLink(key, objectKey, expires, signature, now + 901_000)).toBe('expired');
  });

  it('calls a changed key, expiry or signature forged', () => {
    const { objectKey, expires, signature } = parse(signFileLink(key, 'req1/report-abc', 900));
    expect(verifyFileLink(key, 'req1/report-abd', expires, signature)).toBe('forged');
    expect(verifyFileLink(key, objectKey, String(Number(expires) + 1000), signature)).toBe('forged');
    expect(
      verifyFileLink(key, objectKey, expires, `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`),
    ).toBe('forged');
    expect(verifyFileLink(fileLinkKey('other', 'x'), objectKey, expires, signature)).toBe('forged');
  });
});
