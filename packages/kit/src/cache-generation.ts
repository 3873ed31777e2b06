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
