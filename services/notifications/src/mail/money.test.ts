import { describe, expect, it, vi } from 'vitest';
import { wholeDollars } from './money.js';

describe('wholeDollars', () => {
  const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

  it('writes what Intl writes in English: grouping, rounding of halves, signs', () => {
    const values = [0, 0.4, 0.5, 1.5, 2.5, 999, 999.5, 1000, 1234.49, 1234.5, 98_765.4, 1_000_000, 123_456_789.5];
    for (const v of [...values, ...values.map((x) => -x), -0.4, -0.5])
      expect(wholeDollars(v), String(v)).toBe(intl.format(v));
    for (let i = 0; i < 2000; i++) {
      const v = (i * 7919.37) % 3_000_000;
      expect(wholeDollars(v)).toBe(intl.format(v));
    }
  });

  it('makes no Intl formatter, at import or in use: the first one loads about 7 MB of ICU data', async () => {
    vi.resetModules();
    const made = vi.spyOn(Intl, 'NumberFormat');
    try {
      const fresh = await import('./money.js');
      fresh.wholeDollars(1234);
      await import('../events/zip-watch-handlers.js');
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });
});
