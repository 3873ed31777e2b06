import { describe, expect, it } from 'vitest';
import { checkNewPassword } from './passwordRules';

describe('new password checks', () => {
  it('accepts matching passwords of at least 8 characters', () => {
    expect(checkNewPassword('abcd1234', 'abcd1234')).toBeNull();
  });

  it('refuses a confirmation that differs', () => {
    expect(checkNewPassword('abcd1234', 'abcd12345')).toBe('Passwords do not match');
  });

  it('refuses a password shorter than 8 characters', () => {
    expect(checkNewPassword('abc1234', 'abc1234')).toBe('Password must be at least 8 characters long');
  });

  it('reports a mismatch before the length', () => {
    expect(checkNewPassword('short', 'other')).toBe('Passwords do not match');
  });
});
