import type { Redis } from 'ioredis';
import type { ServicePlugin } from '../app.js';
import { requireLazily } from '../lazy-require.js';
import type { Logger } from '../logger.js';
import { createRedis, guardRedis } from './breaker.js';

export type { Redis } from 'ioredis';

export const loadIoredis = () => requireLazily('ioredis') as typeof import('ioredis');

/** The oldest Redis the services run on: sessions and rate limits use `EXPIRE … NX/GT` (Redis 7). */
export const MIN_REDIS_MAJOR = 7;

/**
 * `commandTimeoutMs` bounds every command: a Redis that hangs (paused, a network that drops
 * packets) rejects the command with "Command timed out" instead of holding the caller forever.
 * Without it (operator commands) a command waits as long as Redis takes. With it, a connection
 * that gets no byte for as long while commands wait is dropped and made anew (ioredis
 * `socketTimeout`): a connection a lost network left open would otherwise stay wedged, every
 * command on it timing out, long after Redis is reachable again.
 */
export async function connectRedis(
  url: string,
  options: { commandTimeoutMs?: number; logger?: Logger } = {},
): Promise<Redis> {
  const redis = createRedis(url, {
    lazyConnect: true,
    // Fail a command quickly while Redis is away instead of queueing it forever.
    maxRetriesPerRequest: 2,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    ...(options.commandTimeoutMs === undefined
      ? {}
      : { commandTimeout: options.commandTimeoutMs, socketTimeout: options.commandTimeoutMs }),
  });
  // Connection errors (refused, reset, a socket timeout) fail the commands they hit (503, logged
  // as a warning) and readiness, and ioredis reconnects by itself; without a listener it would
  // also print each one to stderr as an unhandled error event.
  redis.on('error', () => {});
  // With a logger (services, the gateway): fail fast while Redis is known to be down (breaker.ts).
  if (options.logger) guardRedis(redis, options.logger);
  await redis.connect();
  try {
    requireRedisVersion(await redis.info('server'));
  } catch (err) {
    redis.disconnect();
    throw err;
  }
  return redis;
}

/** Stops the start on a Redis that is too old, rather than letting limits fail one call at a time. */
export function requireRedisVersion(info: string): void {
  const version = /^redis_version:(\S+)/m.exec(info)?.[1];
  const major = Number(version?.split('.')[0]);
  if (!version || !Number.isFinite(major)) throw new Error('Could not read the Redis version (INFO server).');
  if (major < MIN_REDIS_MAJOR) {
    throw new Error(
      `Redis ${version} is too old: HomeReport needs Redis ${MIN_REDIS_MAJOR} or newer (sessions and rate limits use EXPIRE with NX/GT). Upgrade the Redis at REDIS_URL.`,
    );
  }
}

/** Redis's readiness check, and quitting it when the app closes. */
export const redisConnection: ServicePlugin<{ redis: Redis }> = async (app, { redis }) => {
  // Degradable: sessions a process holds, rate limits and caches go on without Redis (a call that
  // needs it answers 503), so a Redis outage must not take every replica out of its Service.
  app.readiness.add(
    'redis',
    async () => {
      await redis.ping();
    },
    { essential: false },
  );
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
};
