import { type Redis, bumpCacheGeneration } from '@homereport/kit';
import type { CachedPage, CoveredListCache } from '../domain/ports.js';

/** Bumped by every change to a covered request; the first page of generation N lives under pageKey(N). */
export const GENERATION_KEY = 'requests:covered:generation';
export const pageKey = (generation: string) => `requests:covered:first:${generation}`;

/**
 * The first page of the public covered list, serialized once and cached in Redis under a key
 * named by a generation number. A change bumps the number (INCR), so every replica agrees at
 * once that the old body is stale, and a rebuild that raced a change can only write under the
 * old generation's key, which nobody reads any more. Each process also keeps the body of the
 * current generation in memory: a request costs one small Redis GET and no serialization.
 */
export class CoveredCache implements CoveredListCache {
  private memo: (CachedPage & { until: number }) | null = null;
  private readonly building = new Map<string, Promise<CachedPage>>();

  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {}

  async firstPage(build: () => Promise<string>): Promise<CachedPage> {
    const generation = (await this.redis.get(GENERATION_KEY)) ?? '0';
    const memo = this.memo;
    if (memo && memo.generation === generation && memo.until > Date.now()) return memo;
    let pending = this.building.get(generation);
    if (!pending) {
      pending = this.load(generation, build).finally(() => this.building.delete(generation));
      this.building.set(generation, pending);
    }
    return pending;
  }

  async invalidate(): Promise<void> {
    this.memo = null;
    const generation = await bumpCacheGeneration(this.redis, GENERATION_KEY);
    await this.redis.del(pageKey(String(generation - 1)));
  }

  private async load(generation: string, build: () => Promise<string>): Promise<CachedPage> {
    let body = await this.redis.get(pageKey(generation));
    if (body === null) {
      body = await build();
      // The expiry bounds staleness should an invalidation ever fail (Redis away during a change).
      await this.redis.set(pageKey(generation), body, 'EX', this.ttlSeconds);
    }
    this.memo = { generationKey: GENERATION_KEY, generation, body, until: Date.now() + this.ttlSeconds * 1000 };
    return this.memo;
  }
}
