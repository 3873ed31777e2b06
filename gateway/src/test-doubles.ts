import { EventEmitter } from 'node:events';
import type { Redis } from '@homereport/kit';

/**
 * The part of ioredis the gateway uses, in memory, for inject() tests without a Redis server:
 * strings, the session store's script, the request budget's counting script (kit
 * rate-limit.ts: INCR, a window of a minute), and a subscriber whose messages the test sends itself
 * (`announce`).
 */
export function fakeRedis() {
  const values = new Map<string, string>();
  const subscriber = Object.assign(new EventEmitter(), {
    connect: async () => {
      subscriber.emit('ready');
    },
    subscribe: async () => 1,
    disconnect: () => {},
  });
  const redis = {
    values,
    get: async (key: string) => values.get(key) ?? null,
    del: async (key: string) => Number(values.delete(key)),
    pexpire: async () => 1,
    /**
     * The session store's GET-and-slide script: the session's JSON (its expiry is not kept here);
     * the budget's: the count after this hit and the window's time left.
     */
    defineCommand(name: string) {
      (redis as Record<string, unknown>)[name] =
        name === 'budgetCount'
          ? async (key: string) => {
              const next = Number(values.get(key) ?? 0) + 1;
              values.set(key, String(next));
              return [next, 60_000];
            }
          : async (key: string) => values.get(key) ?? null;
    },
    ping: async () => 'PONG',
    quit: async () => 'OK',
    disconnect: () => {},
    duplicate: () => subscriber,
    /** What a service's bumpCacheGeneration announces on the cache-generation channel. */
    announce(channel: string, key: string) {
      subscriber.emit('message', channel, key);
    },
  };
  return Object.assign(redis as unknown as Redis, { values, announce: redis.announce });
}
