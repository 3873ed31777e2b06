import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { budgetPipeline } from './budget-redis.js';

/**
 * The part of ioredis the gateway and the kit use, in memory, for tests without a Redis server:
 * strings, the session store's script, the request budget's INCRBY/PEXPIRE/PTTL pipeline (kit
 * rate-limit.ts), and a subscriber whose messages the test sends itself
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
    /** The session store's GET-and-slide script: the session's JSON (its expiry is not kept here). */
    defineCommand(name: string) {
      (redis as Record<string, unknown>)[name] = async (key: string) => values.get(key) ?? null;
    },
    ping: async () => 'PONG',
    quit: async () => 'OK',
    disconnect: () => {},
    duplicate: () => subscriber,
    ...budgetPipeline(values),
    /** What a service's bumpCacheGeneration announces on the cache-generation channel. */
    announce(channel: string, key: string) {
      subscriber.emit('message', channel, key);
    },
  };
  return Object.assign(redis as unknown as Redis, { values, announce: redis.announce });
}
