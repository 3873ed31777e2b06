import type { Redis } from '@homereport/kit';
import type { MailCooldown } from '../domain/ports.js';
import { digest } from './sign-in-throttle.js';

/** One verification or reset email per address per cooldown period. */
export class RedisMailCooldown implements MailCooldown {
  constructor(
    private readonly redis: Redis,
    private readonly seconds: number,
  ) {}

  async take(kind: 'verification' | 'reset', email: string): Promise<boolean> {
    if (this.seconds <= 0) return true;
    const set = await this.redis.set(`auth:mail-cooldown:${kind}:${digest(email)}`, '1', 'EX', this.seconds, 'NX');
    return set === 'OK';
  }
}
