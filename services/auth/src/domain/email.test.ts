import { describe, expect, it } from 'vitest';
import { looksLikeEmail, normaliseEmail } from './email.js';

describe('email rules', () => {
  it('normalises by trimming and lower-casing, so letter case never makes a second account', () => {
    expect(normaliseEmail('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
  });

  it('accepts ordinary addresses and refuses obvious non-addresses', () => {
    expect(looksLikeEmail('ann@example.com')).toBe(true);
    expect(looksLikeEmail('ann+homes@mail.example.co.uk')).toBe(true);
    for (const bad of ['ann', 'ann@', '@example.com', 'ann@example', 'a nn@example.com', `${'a'.repeat(250)}@x.com`]) {
      expect(looksLikeEmail(bad), bad).toBe(false);
    }
  });
});
