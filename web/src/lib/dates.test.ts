import { describe, expect, it } from 'vitest';
import {
  DATE_NOT_AVAILABLE,
  formatAdminDateTime,
  formatLongDate,
  formatLongDateTime,
  nextCreditRefresh,
} from './dates';

const UTC = 'UTC';

describe('date formatting', () => {
  it('shows admin dates with year, short month, day, hour and minute', () => {
    expect(formatAdminDateTime('2025-03-05T14:07:00.000Z', UTC)).toBe('Mar 5, 2025, 02:07 PM');
  });

  it('shows the request detail date in the long US style', () => {
    expect(formatLongDateTime('2025-03-05T14:07:00.000Z', UTC)).toBe('March 5, 2025 at 02:07 PM');
  });

  it('shows customer dates as month, day and year', () => {
    expect(formatLongDate('2025-12-31T23:30:00.000Z', UTC)).toBe('December 31, 2025');
  });

  it('uses the reader time zone when asked to', () => {
    expect(formatLongDate('2025-12-31T23:30:00.000Z', 'America/Los_Angeles')).toBe('December 31, 2025');
    expect(formatLongDate('2026-01-01T05:30:00.000Z', 'America/New_York')).toBe('January 1, 2026');
    expect(formatLongDate('2026-01-01T04:30:00.000Z', 'America/New_York')).toBe('December 31, 2025');
  });

  it("says 'Date not available' for a missing or unreadable value", () => {
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatLongDateTime(value, UTC)).toBe(DATE_NOT_AVAILABLE);
      expect(formatAdminDateTime(value, UTC)).toBe(DATE_NOT_AVAILABLE);
      expect(formatLongDate(value, UTC)).toBe(DATE_NOT_AVAILABLE);
    }
    expect(DATE_NOT_AVAILABLE).toBe('Date not available');
  });
});

describe('next credit refresh', () => {
  it('is the server date when the server sent one', () => {
    expect(nextCreditRefresh('2025-04-01T00:00:00.000Z')).toBe('2025-04-01T00:00:00.000Z');
  });

  it('is 30 days from now otherwise', () => {
    const now = new Date('2025-03-01T12:00:00.000Z');
    expect(nextCreditRefresh(undefined, now)).toBe('2025-03-31T12:00:00.000Z');
    expect(nextCreditRefresh('garbage', now)).toBe('2025-03-31T12:00:00.000Z');
  });
});
