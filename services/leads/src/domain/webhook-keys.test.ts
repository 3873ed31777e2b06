import { describe, expect, it } from 'vitest';
import { checkKeyName, generateWebhookSecret, hashWebhookSecret, hashesEqual, keyTag } from './webhook-keys.js';

describe('webhook key secrets', () => {
  it('are 32 random bytes, URL-safe, different every time', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whk_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('are stored as SHA-256 and compared in constant time', () => {
    const secret = generateWebhookSecret();
    const hash = hashWebhookSecret(secret);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashesEqual(hash, hashWebhookSecret(secret))).toBe(true);
    expect(hashesEqual(hash, hashWebhookSecret(`${secret}x`))).toBe(false);
    expect(hashesEqual(hash, 'abc')).toBe(false);
  });
});

describe('checkKeyName', () => {
  it('trims and accepts ordinary names', () => {
    expect(checkKeyName('  Google Ads – Spring  ')).toEqual({ ok: true, name: 'Google Ads – Spring' });
  });

  it.each([
    ['', /blank/],
    ['   ', /blank/],
    ['x'.repeat(101), /at most 100/],
    ['a\nb', /control/],
  ])('refuses %j', (input, message) => {
    const check = checkKeyName(input);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(message);
  });

  it('tags names with 16 hex characters', () => {
    expect(keyTag('a')).toMatch(/^[0-9a-f]{16}$/);
    expect(keyTag('a')).not.toBe(keyTag('b'));
  });
});
