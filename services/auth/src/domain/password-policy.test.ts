import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy.js';

describe('passwordProblem', () => {
  it('accepts 8 to 200 characters', () => {
    expect(passwordProblem('8 chars!')).toBeNull();
    expect(passwordProblem('x'.repeat(200))).toBeNull();
  });

  it('says why a password is refused', () => {
    expect(passwordProblem('1234567')).toBe('Password must be at least 8 characters long.');
    expect(passwordProblem('x'.repeat(201))).toBe('Password must be at most 200 characters long.');
    expect(passwordProblem('        ')).toBe('Password must not be only spaces.');
  });

  it('refuses common passwords whatever their case, in the spec’s words', () => {
    for (const p of ['password1', 'PASSWORD1', 'Password1', '12345678', 'qwertyuiop', 'iloveyou']) {
      expect(passwordProblem(p), p).toBe('This password is too common. Please choose another.');
    }
    expect(passwordProblem('correct horse 1')).toBeNull();
  });

  it('refuses every password of the list and only whole lines of it', () => {
    const lines = readFileSync(new URL('../../data/common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.length >= 8);
    expect(lines.length).toBeGreaterThan(1000);
    for (const p of [lines[0], lines[1], lines.at(-1), lines[Math.floor(lines.length / 2)]] as string[]) {
      expect(passwordProblem(p), p).toBe('This password is too common. Please choose another.');
      // A part of a line, a line with more around it, or two lines together are not on the list.
      expect(passwordProblem(`${p}x`), p).toBeNull();
      expect(passwordProblem(`x${p}`), p).toBeNull();
    }
    expect(passwordProblem(`${lines[0]}\n${lines[1]}`)).toBeNull();
  });
});
