import type { Redis } from 'ioredis';

/**
 * A public GET answer that stays valid while a generation number in Redis stays the same. The
 * service that owns the data bumps the number (INCR) on every change and names it in this header
 * (`<redis key>=<generation>`); the gateway may then keep the answer and serve it again after one
 * Redis GET that finds the same number, without calling the service. A change is visible at once.
 */
export const CACHE_GENERATION_HEADER = 'x-cache-generation';

const KEY = /^[\w:.-]{1,120}$/;

export function formatCacheGeneration(key: string, generation: string): string {
  return `${key}=${generation}`;
}

export function parseCacheGeneration(value: unknown): { key: string; generation: string } | null {
  if (typeof value !== 'string') return null;
  const at = value.lastIndexOf('=');
  const key = value.slice(0, at);
  const generation = value.slice(at + 1);
  return at > 0 && KEY.test(key) && /^\d{1,20}$/.test(generation) ? { key, generation } : null;
}

/** Where a bumped generation is announced, so gateways drop what they keep without asking Redis per request. */
export const CACHE_GENERATION_CHANNEL = 'cache-generation';

/**
 * Marks every answer built from `key`'s data stale: INCR the generation and announce the key on
 * CACHE_GENERATION_CHANNEL, in one MULTI so no subscriber hears of a bump that did not happen.
 * Returns the new generation.
 */
export async function bumpCacheGeneration(redis: Redis, key: string): Promise<number> {
  const replies = await redis.multi().incr(key).publish(CACHE_GENERATION_CHANNEL, key).exec();
  for (const [err] of replies ?? []) if (err) throw err;
  return Number(replies?.[0]?.[1]);
}

/**
 * How long a request waits for a cache's generation before it reads through to the database: far
 * below REDIS_TIMEOUT_MS (the deadline of a call that needs Redis), as a cache that is away costs
 * only a database read, never the answer.
 */
export const CACHE_READ_DEADLINE_MS = 250;

/**
 * The generation of `key` (kept answers built under it are current), or null when Redis did not
 * answer within `deadlineMs`, failed, or is known to be down (its breaker open): the caller then
 * reads through to its database and keeps nothing, so a hung or lost Redis never turns a public
 * read into an error. A late answer is dropped.
 */
export async function readCacheGeneration(
  redis: Redis,
  key: string,
  deadlineMs = CACHE_READ_DEADLINE_MS,
): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
  });
  const read = redis.get(key).then(
    (value) => value ?? '0',
    () => null,
  );
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}
