/**
 * Report credits: CREDITS_PER_PERIOD per period of PERIOD_DAYS days. A user's periods start at
 * their first report view (the anchor) and follow each other without gaps: period n runs from
 * anchor + n * 30 days to anchor + (n + 1) * 30 days. Unused credits do not carry over.
 */
export const CREDITS_PER_PERIOD = 10;
const PERIOD_DAYS = 30;
const PERIOD_MS = PERIOD_DAYS * 24 * 60 * 60 * 1000;

interface CreditPeriod {
  index: number;
  start: Date;
  /** When this period's credits end and the next period's full allowance begins. */
  end: Date;
}

export function periodAt(anchor: Date, now: Date): CreditPeriod {
  const index = Math.max(0, Math.floor((now.getTime() - anchor.getTime()) / PERIOD_MS));
  const start = new Date(anchor.getTime() + index * PERIOD_MS);
  return { index, start, end: new Date(start.getTime() + PERIOD_MS) };
}

/** Before a user's first view there is no anchor: a period would start now. */
export function periodFromNow(now: Date): CreditPeriod {
  return { index: 0, start: now, end: new Date(now.getTime() + PERIOD_MS) };
}

const LONG_DATE_UTC = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** "February 3, 2026": the date in UTC. */
export function longDateUtc(date: Date): string {
  return LONG_DATE_UTC.format(date);
}

export function noCreditsMessage(refreshAt: Date): string {
  return `You have used all ${CREDITS_PER_PERIOD} report credits of this period. Your credits refresh on ${longDateUtc(refreshAt)} (UTC).`;
}
