import { describe, expect, it, vi } from 'vitest';
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

  it('writes the date as Intl does in English, in UTC, for every day of a leap year and others', () => {
    const intl = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    for (const start of [Date.UTC(2028, 0, 1), Date.UTC(1999, 11, 31, 23, 59, 59), Date.UTC(2026, 5, 1, 0, 0, 0, 1)]) {
      for (let d = 0; d < 367; d++) {
        const date = new Date(start + d * day);
        expect(longDateUtc(date)).toBe(intl.format(date));
      }
    }
  });

  it('makes no Intl formatter, at import or in use: the first one loads about 8 MB of ICU data', async () => {
    vi.resetModules();
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      const fresh = await import('./credit-period.js');
      fresh.noCreditsMessage(new Date());
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });
});
