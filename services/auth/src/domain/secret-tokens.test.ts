import { describe, expect, it } from 'vitest';
import { hashToken, newSecretToken } from './secret-tokens.js';

describe('secret tokens', () => {
  it('are random, URL-safe, and come with their sha256 (what is stored)', () => {
    const a = newSecretToken();
    const b = newSecretToken();
    expect(a.token).toMatch(/^[\w-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(hashToken(a.token));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
