import type { Redis } from 'ioredis';

/**
 * The pipeline a request budget's counts send to Redis (kit rate-limit.ts, SharedCounts: INCRBY,
 * PEXPIRE NX, PTTL per caller), in memory: each counter's total is kept in `values`, and every
 * window has `ttlMs` left. For unit tests of budgets without a Redis server.
 */
export function budgetPipeline(values: Map<string, string>, ttlMs = 60_000): Pick<Redis, 'pipeline'> {
  return {
    pipeline() {
      const replies: [null, unknown][] = [];
      const chain = {
        incrby(key: string, by: number) {
          const next = Number(values.get(key) ?? 0) + by;
          values.set(key, String(next));
          replies.push([null, next]);
          return chain;
        },
        pexpire() {
          replies.push([null, 1]);
          return chain;
        },
        pttl() {
          replies.push([null, ttlMs]);
          return chain;
        },
        exec: async () => replies,
      };
      return chain;
    },
  } as unknown as Pick<Redis, 'pipeline'>;
}
