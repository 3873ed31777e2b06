import type { AccessHistoryEntry } from '@homereport/contracts';

/** Spec section 9: Recent Activity shows at most this many entries. */
export const RECENT_ACTIVITY_LIMIT = 5;

export function recentActivity(history: AccessHistoryEntry[] | undefined): AccessHistoryEntry[] {
  return (history ?? []).slice(0, RECENT_ACTIVITY_LIMIT);
}

/** Shown for a figure not read yet (or not readable): a dash, never a zero that may not be true. */
export const NOT_KNOWN = '—';

/** The plan's name as shown: 'Free' unless the server names another. */
export function planName(status: string | null | undefined): string {
  const value = status?.trim();
  if (!value) return 'Free';
  return value.charAt(0).toUpperCase() + value.slice(1);
}
