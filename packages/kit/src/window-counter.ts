import type { Redis } from 'ioredis';

export interface WindowCount {
  /** Hits counted in the current window. */
  count: number;
  /** Seconds until the window closes and the count starts again. */
  retryAfterSeconds: number;
}

/**
 * Counts hits per key in Redis, in a window that opens with the first hit and lasts
 * `windowSeconds`; shared by every replica. Only the contact form's limit (notifications) still
 * counts here: request budgets are `requestBudget` (rate-limit.ts), and this goes once the contact
 * form's limit is one of them (decision 030).
 */
export class WindowCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly windowSeconds: number,
  ) {}

  /** Counts one hit for `id`. */
  async hit(id: string): Promise<WindowCount> {
    const key = this.prefix + id;
    const replies = await this.redis.multi().incr(key).expire(key, this.windowSeconds, 'NX').ttl(key).exec();
    return this.reading(replies, 0, 2);
  }

  /** The current count for `id` without adding to it. */
  async peek(id: string): Promise<WindowCount> {
    const key = this.prefix + id;
    return this.reading(await this.redis.multi().get(key).ttl(key).exec(), 0, 1);
  }

  async clear(id: string): Promise<void> {
    await this.redis.del(this.prefix + id);
  }

  private reading(replies: [Error | null, unknown][] | null, countAt: number, ttlAt: number): WindowCount {
    for (const [err] of replies ?? []) if (err) throw err;
    const ttl = Number(replies?.[ttlAt]?.[1]);
    return {
      count: Number(replies?.[countAt]?.[1] ?? 0),
      // A key without expiry (-1) should not exist; count a whole window rather than forever.
      retryAfterSeconds: ttl > 0 ? ttl : this.windowSeconds,
    };
  }
}
