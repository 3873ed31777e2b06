import { SESSION_ENDED_CHANNEL, type Session, type SessionStore, hashToken } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import type { Announcements } from './announcements.js';
import { createSessionCache } from './session-cache.js';

const session: Session = { userId: 'u1', email: 'a@example.com', role: 'user', createdAt: new Date().toISOString() };

/** A store whose sessions the test ends, counting the lookups that reach it. */
function fakeStore() {
  const live = new Set(['t1', 't2']);
  let gate: Promise<void> | null = null;
  const store = {
    lookups: 0,
    live,
    /** The next lookup reads the session at once but answers only when the returned function is called. */
    holdNext(): () => void {
      let open = () => {};
      gate = new Promise((r) => {
        open = r;
      });
      return open;
    },
    async resolveHash(hash: string) {
      store.lookups += 1;
      const wasLive = [...live].some((token) => hashToken(token) === hash);
      const held = gate;
      gate = null;
      if (held) await held;
      return wasLive ? session : null;
    },
  };
  return store;
}

function fakeAnnouncements() {
  const listeners = new Map<string, ((m: string) => void)[]>();
  return {
    live: true,
    on(channel: string, listener: (m: string) => void) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    },
    onResubscribed() {},
    close() {},
    announce(channel: string, message: string) {
      for (const l of listeners.get(channel) ?? []) l(message);
    },
  };
}

const cacheOver = (store: ReturnType<typeof fakeStore>, announcements: ReturnType<typeof fakeAnnouncements>) =>
  createSessionCache(store as unknown as SessionStore, announcements as Announcements);

describe('the session cache', () => {
  it('asks Redis once for a session used again within a few seconds', async () => {
    const store = fakeStore();
    const cache = cacheOver(store, fakeAnnouncements());
    expect(await cache.resolve('t1')).toEqual(session);
    expect(await cache.resolve('t1')).toEqual(session);
    expect(store.lookups).toBe(1);
  });

  it('stops using a session as soon as its end is announced', async () => {
    const store = fakeStore();
    const announcements = fakeAnnouncements();
    const cache = cacheOver(store, announcements);
    await cache.resolve('t1');
    await cache.resolve('t2');
    store.live.delete('t1');
    announcements.announce(SESSION_ENDED_CHANNEL, hashToken('t1'));
    expect(await cache.resolve('t1')).toBeNull();
    // Others stay kept.
    expect(await cache.resolve('t2')).toEqual(session);
    expect(store.lookups).toBe(3);
  });

  it('does not keep a lookup that began before an announcement (it may have read an ended session)', async () => {
    const store = fakeStore();
    const announcements = fakeAnnouncements();
    const cache = cacheOver(store, announcements);
    const release = store.holdNext();
    const inFlight = cache.resolve('t1');
    store.live.delete('t1');
    announcements.announce(SESSION_ENDED_CHANNEL, hashToken('t1'));
    release();
    // Read before the end: used for that one request only.
    expect(await inFlight).toEqual(session);
    expect(await cache.resolve('t1')).toBeNull();
  });

  it('keeps nothing while not hearing announcements, and forgets a session this gateway saw changed', async () => {
    const store = fakeStore();
    const announcements = fakeAnnouncements();
    const cache = cacheOver(store, announcements);
    announcements.live = false;
    await cache.resolve('t1');
    await cache.resolve('t1');
    expect(store.lookups).toBe(2);
    announcements.live = true;
    await cache.resolve('t1');
    cache.forget('t1');
    await cache.resolve('t1');
    expect(store.lookups).toBe(4);
  });

  it('keeps a session no longer than its absolute end, however long sessions are kept', async () => {
    const store = fakeStore();
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const endsSoon = { ...session, expiresAt: new Date(clock + 40).toISOString() };
    store.resolveHash = async () => {
      store.lookups += 1;
      return endsSoon;
    };
    const cache = createSessionCache(store as unknown as SessionStore, fakeAnnouncements() as Announcements, {
      keepMs: 60_000,
      now: () => clock,
    });
    await cache.resolve('t1');
    await cache.resolve('t1');
    expect(store.lookups).toBe(1);
    clock += 80;
    // Past its end: asked again (the store, which checks the end, would answer that it is over).
    await cache.resolve('t1');
    expect(store.lookups).toBe(2);
  });
});
