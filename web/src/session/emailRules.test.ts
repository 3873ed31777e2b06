import { describe, expect, it } from 'vitest';
import { INVALID_EMAIL_MESSAGE, emailProblem } from './emailRules';

describe('email check before sending', () => {
  it('accepts an ordinary address, trimmed', () => {
    expect(emailProblem(' ann@example.com ')).toBeNull();
    expect(emailProblem('a.b+c@mail.example.co.uk')).toBeNull();
  });

  it('refuses what a browser lets through but no mail server can deliver to', () => {
    for (const email of ['a@b', 'a@b.', '@example.com', 'a b@example.com', 'a@example..com']) {
      expect(emailProblem(email)).toBe(INVALID_EMAIL_MESSAGE);
    }
  });
});
