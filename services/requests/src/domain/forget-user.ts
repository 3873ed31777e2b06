import type { StatsStore } from './ports.js';

/** What the requests database holds about one user, to be erased or unlinked when they delete their account. */
export interface UserErasure {
  /** Their requests stay (they are the product's), without the requester; status changes they made lose their name. */
  unlinkRequests(userId: string): Promise<number>;
  /** Their report views: the ledger entries and which reports they ever opened. */
  eraseViews(userId: string): Promise<number>;
  /** Their credit periods. */
  eraseCredits(userId: string): Promise<number>;
  /** Their counters, recent views and own-requests list. */
  eraseActivity(userId: string): Promise<void>;
  /** Their entry in the user directory, if still there: which dashboard counters include them. */
  directoryEntry(userId: string): Promise<{ registeredCounted: boolean; verifiedCounted: boolean } | null>;
  eraseDirectoryEntry(userId: string): Promise<void>;
}

interface ForgottenUser {
  requestsUnlinked: number;
  viewsErased: number;
  creditPeriodsErased: number;
}

/**
 * account-deleted: nothing here stays linked to the user. Every step is idempotent (an event
 * may arrive twice, or again after a crash half way): erasing what is gone does nothing, and
 * the user counters are taken down once per user (effect ids), before the directory entry that
 * says what they include goes.
 */
export async function forgetUser(erasure: UserErasure, stats: StatsStore, userId: string): Promise<ForgottenUser> {
  const entry = await erasure.directoryEntry(userId);
  if (entry?.registeredCounted) await stats.applyUserDelta(`deleted-registered:${userId}`, { totalUsers: -1 });
  if (entry?.verifiedCounted) await stats.applyUserDelta(`deleted-verified:${userId}`, { verifiedUsers: -1 });
  await erasure.eraseDirectoryEntry(userId);
  const requestsUnlinked = await erasure.unlinkRequests(userId);
  const viewsErased = await erasure.eraseViews(userId);
  const creditPeriodsErased = await erasure.eraseCredits(userId);
  await erasure.eraseActivity(userId);
  return { requestsUnlinked, viewsErased, creditPeriodsErased };
}
