import type { AccessHistoryEntry } from '@homereport/contracts';

/** Spec section 9: Recent Activity shows at most this many entries. */
export const RECENT_ACTIVITY_LIMIT = 5;

export function recentActivity(history: AccessHistoryEntry[] | undefined): AccessHistoryEntry[] {
  // Each property once, at its latest view (the history is newest first): opening a property
  // through two of its requests is one property.
  const seen = new Set<string>();
  return (history ?? [])
    .filter((entry) => {
      const property = entry.property_id ?? entry.request_id;
      if (seen.has(property)) return false;
      seen.add(property);
      return true;
    })
    .slice(0, RECENT_ACTIVITY_LIMIT);
}

/** Shown for a figure not read yet (or not readable): a dash, never a zero that may not be true. */
export const NOT_KNOWN = '—';

/** The plan's name as shown: 'Free' unless the server names another. */
export function planName(status: string | null | undefined): string {
  const value = status?.trim();
  if (!value) return 'Free';
  return value.charAt(0).toUpperCase() + value.slice(1);
}
