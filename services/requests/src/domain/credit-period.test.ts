import { describe, expect, it } from 'vitest';
import { longDateUtc, noCreditsMessage, periodAt } from './credit-period.js';

const day = 24 * 60 * 60 * 1000;

describe('credit periods', () => {
  const anchor = new Date(Date.UTC(2026, 0, 1, 12));

  it('runs 30 days from the first view, one after the other', () => {
    expect(periodAt(anchor, anchor)).toEqual({ index: 0, start: anchor, end: new Date(anchor.getTime() + 30 * day) });
    const later = periodAt(anchor, new Date(anchor.getTime() + 31 * day));
    expect(later.index).toBe(1);
    expect(later.start).toEqual(new Date(anchor.getTime() + 30 * day));
    expect(periodAt(anchor, new Date(anchor.getTime() + 30 * day - 1)).index).toBe(0);
  });

  it('says when credits refresh', () => {
    expect(noCreditsMessage(new Date(Date.UTC(2026, 1, 3)))).toMatch(/refresh on February 3, 2026/);
  });

  it('writes the date in words, in UTC', () => {
    expect(longDateUtc(new Date(Date.UTC(2028, 1, 29, 23, 59)))).toBe('February 29, 2028');
    expect(longDateUtc(new Date(Date.UTC(1999, 11, 31, 23, 59, 59)))).toBe('December 31, 1999');
  });
});
