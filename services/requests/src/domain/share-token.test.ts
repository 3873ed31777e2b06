import { fileLinkKey } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { newShareId, shareTokenKey, signShareToken, verifyShareToken } from './share-token.js';

const key = shareTokenKey('', 'an internal secret of some length');
const now = new Date(Date.UTC(2026, 0, 1));
const inAWeek = new Date(now.getTime() + 7 * 24 * 3600 * 1000);

/** The same text with one character of `part` (0 id, 1 expiry, 2 signature) changed. */
function alter(token: string, part: number): string {
  const parts = token.split('.');
  const text = parts[part] ?? '';
  const last = text.at(-1);
  parts[part] = `${text.slice(0, -1)}${last === 'a' ? 'b' : 'a'}`;
  return parts.join('.');
}

describe('share tokens', () => {
  it('verifies a token it signed, with its share id and expiry, until it expires', () => {
    const id = newShareId();
    const token = signShareToken(key, id, inAWeek);
    expect(verifyShareToken(key, token, now)).toEqual({ outcome: 'valid', shareId: id, expiresAt: inAWeek });
    expect(verifyShareToken(key, token, new Date(inAWeek.getTime() + 1000)).outcome).toBe('expired');
  });

  it('calls a changed id, expiry or signature, another key or garbage forged', () => {
    const token = signShareToken(key, newShareId(), inAWeek);
    for (const part of [0, 1, 2]) expect(verifyShareToken(key, alter(token, part), now).outcome).toBe('forged');
    expect(verifyShareToken(shareTokenKey('other', 'x'), token, now).outcome).toBe('forged');
    for (const garbage of ['', 'abc', `${token}.x`, token.replaceAll('.', '')]) {
      expect(verifyShareToken(key, garbage, now).outcome).toBe('forged');
    }
  });

  it('derives a key of its own, not the file links key, from the same secret', () => {
    const secret = 's'.repeat(20);
    expect(shareTokenKey('', secret).equals(shareTokenKey('', secret))).toBe(true);
    expect(shareTokenKey('', secret).equals(fileLinkKey('', secret))).toBe(false);
    expect(shareTokenKey('', secret).equals(shareTokenKey('explicit', secret))).toBe(false);
  });
});
