/**
 * Dates as the screens show them (spec section 9): en-US, in the reader's time zone unless a
 * zone is given (tests pin one). A missing or unreadable value shows as 'Date not available'.
 */

export const DATE_NOT_AVAILABLE = 'Date not available';

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function format(value: string | null | undefined, options: Intl.DateTimeFormatOptions, timeZone?: string): string {
  const date = parse(value);
  if (!date) return DATE_NOT_AVAILABLE;
  return new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(date);
}

/** "Mar 5, 2025, 02:07 PM": admin lists (year, short month, day, hour and minute). */
export function formatAdminDateTime(value: string | null | undefined, timeZone?: string): string {
  return format(
    value,
    { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
    timeZone,
  );
}

/** "March 5, 2025 at 02:07 PM": the long US style of the admin request detail. */
export function formatLongDateTime(value: string | null | undefined, timeZone?: string): string {
  return format(
    value,
    { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' },
    timeZone,
  );
}

/** "March 5, 2025": report completion, viewed-on and refresh dates for customers. */
export function formatLongDate(value: string | null | undefined, timeZone?: string): string {
  return format(value, { year: 'numeric', month: 'long', day: 'numeric' }, timeZone);
}

export const CREDIT_PERIOD_DAYS = 30;

/** When credits refresh: the server's date when it sent one, else 30 days from now (spec section 9). */
export function nextCreditRefresh(serverValue: string | null | undefined, now = new Date()): string {
  if (parse(serverValue)) return serverValue as string;
  return new Date(now.getTime() + CREDIT_PERIOD_DAYS * 24 * 60 * 60 * 1000).toISOString();
}
