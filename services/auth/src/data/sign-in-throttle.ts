import { createHash } from 'node:crypto';
import type { Redis } from '@homereport/kit';
import type { SignInThrottle } from '../domain/ports.js';

export interface ThrottleLimits {
  windowSeconds: number;
  maxPerAccount: number;
  maxPerClient: number;
}

// Keys name a digest of the email, so Redis holds no addresses.
export const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
const accountKey = (email: string) => `auth:signin-failures:account:${digest(email)}`;
const clientKey = (address: string) => `auth:signin-failures:client:${address}`;

/**
 * Failed sign-ins counted in Redis (shared by every auth replica) in a window that starts at
 * the first failure. Only failures count, so people who sign in correctly are never slowed;
 * the per-account limit stops guessing one password, the per-address one stops trying a
 * password across many accounts.
 */
export class RedisSignInThrottle implements SignInThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly limits: ThrottleLimits,
  ) {}

  async waitSeconds(email: string, address: string): Promise<number | null> {
    const checks: [string, number][] = [
      [accountKey(email), this.limits.maxPerAccount],
      [clientKey(address), this.limits.maxPerClient],
    ];
    const pipeline = this.redis.multi();
    for (const [key] of checks) pipeline.get(key).pttl(key);
    const replies = ((await pipeline.exec()) ?? []).map(([err, value]) => {
      if (err) throw err;
      return value;
    });
    let wait: number | null = null;
    checks.forEach(([, max], i) => {
      const count = Number(replies[i * 2] ?? 0);
      const ttlMs = Number(replies[i * 2 + 1]);
      if (count >= max) {
        // A key without expiry (-1) should not exist; wait a whole window rather than forever.
        const seconds = ttlMs > 0 ? Math.ceil(ttlMs / 1000) : this.limits.windowSeconds;
        wait = Math.max(wait ?? 0, seconds);
      }
    });
    return wait;
  }

  async recordFailure(email: string, address: string): Promise<void> {
    const pipeline = this.redis.multi();
    for (const key of [accountKey(email), clientKey(address)]) {
      pipeline.incr(key).expire(key, this.limits.windowSeconds, 'NX');
    }
    await pipeline.exec();
  }

  async clearAccount(email: string): Promise<void> {
    await this.redis.del(accountKey(email));
  }
}
