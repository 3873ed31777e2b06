import { createHash } from 'node:crypto';
import { type Redis, WindowCounter } from '@homereport/kit';
import type { SignInThrottle } from '../domain/ports.js';

export interface ThrottleLimits {
  windowSeconds: number;
  maxPerAccount: number;
  maxPerClient: number;
}

// Keys name a digest of the email, so Redis holds no addresses.
export const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/**
 * Failed sign-ins counted with the kit's window counter (shared by every auth replica), in a
 * window that starts at the first failure. Only failures count, so people who sign in
 * correctly are never slowed; the per-account limit stops guessing one password, the
 * per-address one stops trying a password across many accounts.
 */
export class RedisSignInThrottle implements SignInThrottle {
  private readonly accounts: WindowCounter;
  private readonly clients: WindowCounter;

  constructor(
    redis: Redis,
    private readonly limits: ThrottleLimits,
  ) {
    this.accounts = new WindowCounter(redis, 'auth:signin-failures:account:', limits.windowSeconds);
    this.clients = new WindowCounter(redis, 'auth:signin-failures:client:', limits.windowSeconds);
  }

  async waitSeconds(email: string, address: string): Promise<number | null> {
    const [account, client] = await Promise.all([this.accounts.peek(digest(email)), this.clients.peek(address)]);
    const waits = [
      account.count >= this.limits.maxPerAccount ? account.retryAfterSeconds : null,
      client.count >= this.limits.maxPerClient ? client.retryAfterSeconds : null,
    ].filter((w): w is number => w !== null);
    return waits.length > 0 ? Math.max(...waits) : null;
  }

  async recordFailure(email: string, address: string): Promise<void> {
    await Promise.all([this.accounts.hit(digest(email)), this.clients.hit(address)]);
  }

  async clearAccount(email: string): Promise<void> {
    await this.accounts.clear(digest(email));
  }
}
