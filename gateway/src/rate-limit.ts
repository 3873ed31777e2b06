import type { Redis } from 'ioredis';

/**
 * A fixed one-minute window per client address in Redis, shared by every gateway replica.
 * Returns the seconds to wait when the budget is spent, else null. Redis being away must
 * not take the site down, so an error lets the request through.
 */
export async function overLimit(redis: Redis, client: string, perMinute: number): Promise<number | null> {
  if (perMinute <= 0) return null;
  const window = Math.floor(Date.now() / 60_000);
  const key = `ratelimit:gw:${client}:${window}`;
  try {
    const [[, count]] = (await redis.multi().incr(key).expire(key, 61).exec()) as [[null, number]];
    if (count <= perMinute) return null;
    return 60 - Math.floor((Date.now() / 1000) % 60);
  } catch {
    return null;
  }
}
