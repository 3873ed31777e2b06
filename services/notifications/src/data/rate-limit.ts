import { type Redis, WindowCounter } from '@homereport/kit';
import type { RateLimiter } from '../domain/ports.js';

/** Every contact rate-limit counter lives under this prefix (tests clear them between cases). */
export const CONTACT_RATE_KEY_PREFIX = 'notifications:contact-rate:';

/**
 * The kit's window counter over the contact allowance. Redis being away must not stop people
 * from reaching us (the message itself is stored in MongoDB), so an error lets the hit through.
 */
export function redisRateLimiter(redis: Redis, onError: (err: unknown) => void): RateLimiter {
  return {
    async hit(key, limit, windowSeconds) {
      try {
        const { count, retryAfterSeconds } = await new WindowCounter(redis, CONTACT_RATE_KEY_PREFIX, windowSeconds).hit(
          key,
        );
        return count <= limit ? { allowed: true } : { allowed: false, retryAfterSeconds };
      } catch (err) {
        onError(err);
        return { allowed: true };
      }
    },
  };
}
