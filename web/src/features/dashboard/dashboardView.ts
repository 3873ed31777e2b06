import type { AccessHistoryEntry, UserStats } from '@homereport/contracts';

/** Spec section 9: Recent Activity shows at most this many entries. */
export const RECENT_ACTIVITY_LIMIT = 5;

export function recentActivity(history: AccessHistoryEntry[] | undefined): AccessHistoryEntry[] {
  return (history ?? []).slice(0, RECENT_ACTIVITY_LIMIT);
}

/** What the counters show when the stats could not be read: zeros (spec section 8). */
export const EMPTY_STATS: Omit<UserStats, 'next_refresh_at'> & { next_refresh_at: string | null } = {
  credits: 0,
  totalAccess: 0,
  uniqueReports: 0,
  subscription_status: 'free',
  next_refresh_at: null,
};

/** The plan's name as shown: 'Free' unless the server names another. */
export function planName(status: string | null | undefined): string {
  const value = status?.trim();
  if (!value) return 'Free';
  return value.charAt(0).toUpperCase() + value.slice(1);
}
