import { SESSION_ENDED_CHANNEL, type Session, type SessionStore, hashToken } from '@homereport/kit';
import { LRUCache } from 'lru-cache';
import type { Announcements } from './announcements.js';

export interface SessionCacheOptions {
  /** How long a resolved session is used without asking Redis (which also slides its idle expiry). */
  keepMs?: number;
  /** Sessions kept at most (those used within `keepMs`); the least recently used go first. */
  max?: number;
  /** The clock, in epoch milliseconds (a test's fake one). */
  now?: () => number;
}

/**
 * Resolved sessions, kept for a few seconds (decision 012). Every signed-in request through the
 * gateway needs its session; asking Redis each time put a round trip in series with every call,
 * the gateway's largest cost on the cheapest ones. A kept session is used only while this gateway
 * hears the channel on which the auth service announces every ended session (sign-out, password
 * change, role change, deleted account), in the same MULTI that deletes it; hearing one drops it.
 * A lookup that began before any such announcement is used for its request but not kept (it may
 * have read a session ended meanwhile). Not subscribed (starting, Redis away), nothing is kept.
 * After `keepMs` the session is resolved in Redis again, which slides its idle expiry as before
 * (idle limits are minutes or more: a few seconds' delay in sliding changes nothing).
 */
export function createSessionCache(
  store: SessionStore,
  announcements: Announcements,
  { keepMs = 5000, max = 20_000, now = Date.now }: SessionCacheOptions = {},
) {
  const keeping = keepMs > 0;
  // Each entry carries its own end, on the one clock that also reads the session's absolute end.
  const kept = new LRUCache<string, { session: Session; until: number }>({ max });
  let epoch = 0;
  announcements.on(SESSION_ENDED_CHANNEL, (hash) => {
    epoch += 1;
    kept.delete(hash);
  });
  announcements.onResubscribed(() => {
    epoch += 1;
    kept.clear();
  });

  return {
    async resolve(token: string): Promise<Session | null> {
      if (!token || token.length > 200) return null;
      const hash = hashToken(token);
      if (announcements.live) {
        const entry = kept.get(hash);
        if (entry && entry.until > now()) return entry.session;
        if (entry) kept.delete(hash);
      }
      const startedAt = epoch;
      const session = await store.resolveHash(hash);
      if (session && keeping && announcements.live && epoch === startedAt) {
        // Never kept past its absolute end (the store checks that end on every lookup).
        const at = now();
        const until = session.expiresAt ? Math.min(at + keepMs, Date.parse(session.expiresAt)) : at + keepMs;
        if (until > at) kept.set(hash, { session, until });
      }
      return session;
    },

    /** This gateway forwarded a sign-out or another session change of the caller: not kept any more. */
    forget(token: string): void {
      kept.delete(hashToken(token));
    },
  };
}
