import { type Redis, WindowCounter } from '@homereport/kit';

/** Every anonymous-request counter lives under this prefix, one per client address. */
export const ANON_LIMIT_KEY_PREFIX = 'requests:anon-limit:';

export interface AnonymousLimit {
  /** Counts a request from `client`; the seconds to wait when it is over the allowance. */
  hit(client: string): Promise<number | null>;
}

/**
 * The hourly allowance of coverage requests per client address for visitors not signed in.
 * Redis being away must not lose a request someone typed (it is stored in MongoDB), so an error
 * lets the request through and is reported.
 */
export function anonymousLimit(redis: Redis, perHour: number, onError: (err: unknown) => void): AnonymousLimit {
  const counter = new WindowCounter(redis, ANON_LIMIT_KEY_PREFIX, 3600);
  return {
    async hit(client) {
      try {
        const { count, retryAfterSeconds } = await counter.hit(client);
        return count > perHour ? retryAfterSeconds : null;
      } catch (err) {
        onError(err);
        return null;
      }
    },
  };
}
