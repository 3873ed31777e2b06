import type { Redis } from '@homereport/kit';
import type { RateLimiter } from '../domain/ports.js';

/** Every contact rate-limit counter lives under this prefix (tests clear them between cases). */
export const CONTACT_RATE_KEY_PREFIX = 'notifications:contact-rate:';

/**
 * A window that opens with the first hit and lasts `windowSeconds`, shared by every replica.
 * Redis being away must not stop people from reaching us (the message itself is stored in
 * MongoDB), so an error lets the hit through; the caller logs nothing secret either way.
 */
export function redisRateLimiter(redis: Redis, onError: (err: unknown) => void): RateLimiter {
  return {
    async hit(key, limit, windowSeconds) {
      const redisKey = `${CONTACT_RATE_KEY_PREFIX}${key}`;
      try {
        const results = await redis
          .multi()
          .set(redisKey, 0, 'EX', windowSeconds, 'NX')
          .incr(redisKey)
          .ttl(redisKey)
          .exec();
        const count = Number(results?.[1]?.[1]);
        const ttl = Number(results?.[2]?.[1]);
        if (!Number.isFinite(count) || count <= limit) return { allowed: true };
        return { allowed: false, retryAfterSeconds: ttl > 0 ? ttl : windowSeconds };
      } catch (err) {
        onError(err);
        return { allowed: true };
      }
    },
  };
}
