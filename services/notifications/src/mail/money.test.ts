import { describe, expect, it } from 'vitest';
import { wholeDollars } from './money.js';

describe('wholeDollars', () => {
  it('groups thousands, rounds halves away from zero and keeps the sign', () => {
    expect(wholeDollars(0)).toBe('$0');
    expect(wholeDollars(1234.5)).toBe('$1,235');
    expect(wholeDollars(-1234.5)).toBe('-$1,235');
    expect(wholeDollars(123_456_789.4)).toBe('$123,456,789');
  });
});
