import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchingStep, otpauthUrl, totpCode } from './totp.js';

// RFC 6238 appendix B, SHA-1: secret "12345678901234567890", 8-digit codes; ours are their last 6.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP', () => {
  it('gives the RFC 6238 codes (last 6 digits)', () => {
    for (const [seconds, code] of RFC_VECTORS) expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code.slice(-6));
  });

  it('gives the RFC 4226 HOTP values', () => {
    const key = Buffer.from('12345678901234567890');
    expect([0, 1, 2, 9].map((c) => hotp(key, c))).toEqual(['755224', '287082', '359152', '520489']);
  });

  it('base32 round-trips', () => {
    const bytes = Buffer.from('any bytes at all \u0000\u00ff');
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
  });

  it('accepts the code of the step before, now and after, and nothing else', () => {
    const at = 1_700_000_000_000;
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at), at)).toBe(Math.floor(at / 30_000));
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at - 30_000), at)).not.toBeNull();
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at + 30_000), at)).not.toBeNull();
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at - 90_000), at)).toBeNull();
    expect(matchingStep(RFC_SECRET, '12345', at)).toBeNull();
    expect(matchingStep(RFC_SECRET, 'abcdef', at)).toBeNull();
  });

  it('builds the otpauth URL authenticator apps read', () => {
    expect(otpauthUrl('HomeReport', 'a@b.example', 'ABC')).toBe(
      'otpauth://totp/HomeReport%3Aa%40b.example?secret=ABC&issuer=HomeReport&algorithm=SHA1&digits=6&period=30',
    );
  });
});
