import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from './sealed.js';

const key = randomBytes(32).toString('hex');

describe('sealed secrets', () => {
  it('opens with the same key and context, and shows nothing of the secret', () => {
    const sealed = sealSecret(key, 'the-token-value', 'password-reset:u1');
    expect(sealed).not.toContain('the-token-value');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(openSecret(key, sealed, 'password-reset:u1')).toBe('the-token-value');
  });

  it('two seals of one secret differ', () => {
    expect(sealSecret(key, 'x', 'c')).not.toBe(sealSecret(key, 'x', 'c'));
  });

  it('refuses another key, another context or an altered seal', () => {
    const sealed = sealSecret(key, 'the-token-value', 'verification:u1');
    expect(() => openSecret(randomBytes(32).toString('hex'), sealed, 'verification:u1')).toThrow();
    expect(() => openSecret(key, sealed, 'password-reset:u1')).toThrow();
    const [v, iv, body, tag] = sealed.split('.');
    const flipped = `${body?.[0] === 'A' ? 'B' : 'A'}${body?.slice(1)}`;
    expect(() => openSecret(key, [v, iv, flipped, tag].join('.'), 'verification:u1')).toThrow();
    expect(() => openSecret(key, 'plain-token', 'verification:u1')).toThrow(/not a sealed secret/);
  });
});
