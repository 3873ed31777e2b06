import type { StatsStore, UserDirectory } from './ports.js';

/**
 * The admin dashboard's user counters, a read model fed by auth's user-registered and
 * user-verified events (create-admin publishes only user-verified). Each user is counted once
 * per counter whatever the events' order or repetitions (Kafka delivers at least once): the
 * user's own document says what was counted, and the counter write is idempotent per user.
 */
export async function observeUser(
  directory: UserDirectory,
  stats: StatsStore,
  userId: string,
  verified: boolean,
): Promise<void> {
  const need = await directory.observe(userId, verified);
  if (need.countRegistered) {
    await stats.applyUserDelta(`registered:${userId}`, { totalUsers: 1 });
    await directory.markCounted(userId, 'registered');
  }
  if (need.countVerified) {
    await stats.applyUserDelta(`verified:${userId}`, { verifiedUsers: 1 });
    await directory.markCounted(userId, 'verified');
  }
}
