import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy.js';

describe('passwordProblem', () => {
  it('accepts 8 to 200 characters', () => {
    expect(passwordProblem('12345678')).toBeNull();
    expect(passwordProblem('x'.repeat(200))).toBeNull();
  });

  it('says why a password is refused', () => {
    expect(passwordProblem('1234567')).toBe('Password must be at least 8 characters long.');
    expect(passwordProblem('x'.repeat(201))).toBe('Password must be at most 200 characters long.');
    expect(passwordProblem('        ')).toBe('Password must not be only spaces.');
  });
});
