import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { tooManyRequests } from './errors.js';

export interface RequestBudget {
  redis: Redis;
  /** Where the budget's counters live in Redis: `prefix` + the key of the caller. */
  prefix: string;
  /** Requests allowed per window, or per caller (a signed-in account and an address may differ); the number 0: no budget. */
  max: number | ((req: FastifyRequest) => number);
  windowSeconds: number;
  /** Who a request is counted against; by default its client address (an IPv6 /64 as one). */
  key?: (req: FastifyRequest) => string;
  /** The 429's message, said to a person. */
  message: string | ((req: FastifyRequest, retryAfterSeconds: number) => string);
  /** When the request is counted: `preHandler` counts only requests that passed validation. */
  hook?: 'onRequest' | 'preHandler';
  /** Called for each refused request (the gateway labels it for the metrics). */
  onExceeded?: (req: FastifyRequest) => void;
  /** How often this process adds its hits in Redis and learns the other replicas' (SharedCounts). */
  flushMs?: number;
}

const NO_HEADERS = {
  'x-ratelimit-limit': false,
  'x-ratelimit-remaining': false,
  'x-ratelimit-reset': false,
  'retry-after': false,
} as const;

/**
 * A request budget: @fastify/rate-limit over every route of the context it is registered in
 * (encapsulate the routes it covers), counted per caller in Redis and shared by every replica:
 *
 *     await app.register(async (limited) => {
 *       await limited.register(requestBudget, { redis, prefix, max, windowSeconds, message });
 *       limited.get(...);
 *     });
 *
 * A refusal is the kit's 429 `{ error, code: 'RATE_LIMITED' }` with `Retry-After` (errors.ts);
 * no `x-ratelimit-*` headers are added to other answers. The counts are the plugin's store
 * option, SharedCounts: no request waits on Redis, and one that is away leaves each process
 * limiting on its own count (decision 030).
 */
export const requestBudget = fp<RequestBudget>(
  async (app, budget) => {
    if (budget.max === 0) return;
    const counts = new SharedCounts(budget.redis, budget.prefix, budget.flushMs);
    app.addHook('onClose', () => counts.close());
    const { max, message, key, onExceeded } = budget;
    await app.register(rateLimit, {
      global: true,
      store: counts.store(),
      max: typeof max === 'number' ? max : (req) => max(req),
      timeWindow: budget.windowSeconds * 1000,
      hook: budget.hook ?? 'onRequest',
      ...(key ? { keyGenerator: key } : {}),
      ...(onExceeded ? { onExceeded: (req) => onExceeded(req) } : {}),
      addHeaders: NO_HEADERS,
      addHeadersOnExceeding: NO_HEADERS,
      errorResponseBuilder: (req, context) => {
        const wait = Math.max(1, Math.ceil(context.ttl / 1000));
        return tooManyRequests(wait, typeof message === 'string' ? message : message(req, wait));
      },
    });
  },
  { name: 'request-budget', fastify: '5.x' },
) as FastifyPluginAsync<RequestBudget>;

interface Tally {
  /** The count Redis last reported for this window: every replica's hits it had been told of. */
  shared: number;
  /** Hits counted here and not yet added in Redis. */
  pending: number;
  /** Hits on their way to Redis in the flush under way. */
  sending: number;
  windowEnds: number;
  windowMs: number;
}

/**
 * The counts of a budget shared by every replica, without a Redis round trip per request.
 *
 * Each process counts hits in memory and adds them to the caller's Redis counter (INCRBY, with a
 * window that opens with the first hit: PEXPIRE NX) in one pipeline every `flushMs`, reading back
 * the total. A request is judged against the last total plus this process's hits since. With one
 * replica the limit is exact; with N, a caller can exceed it by what the other replicas let
 * through in one flush interval (100 ms by default), a bound a per-minute or per-hour budget can
 * live with. When Redis is away each replica still limits on its own count, and no request waits.
 *
 * Why not the plugin's own Redis store: a script call per request (measured in decision 030)
 * cost the gateway more than half its throughput on kept public answers, and a hung Redis held
 * each request for the client's command deadline. Memory is bounded by `maxCallers`.
 */
export class SharedCounts {
  private readonly tallies: LRUCache<string, Tally>;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    flushMs = 100,
    maxCallers = 100_000,
  ) {
    this.tallies = new LRUCache({ max: maxCallers });
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  /** Counts one hit for `key`: the count it makes in the window, and the window's milliseconds left. */
  hit(key: string, windowMs: number, now = Date.now()): { current: number; ttl: number } {
    let tally = this.tallies.get(key);
    if (!tally || tally.windowEnds <= now) {
      tally = { shared: 0, pending: 0, sending: 0, windowEnds: now + windowMs, windowMs };
      this.tallies.set(key, tally);
    }
    tally.pending += 1;
    return { current: tally.shared + tally.sending + tally.pending, ttl: tally.windowEnds - now };
  }

  /** The store @fastify/rate-limit takes: every route of the context counts in this one budget. */
  store(): FastifyRateLimitStoreCtor {
    const counts = this;
    return class SharedCountsStore implements FastifyRateLimitStore {
      incr(
        key: string,
        callback: (err: Error | null, result?: { current: number; ttl: number }) => void,
        windowMs: number,
      ) {
        callback(null, counts.hit(key, windowMs));
      }

      child(): FastifyRateLimitStore {
        return this;
      }
    };
  }

  /** Adds the hits counted here to Redis and reads back the totals; one at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  close(): Promise<void> {
    clearInterval(this.timer);
    return this.flush();
  }

  private async send(): Promise<void> {
    const now = Date.now();
    const batch: [string, Tally][] = [];
    const ended: string[] = [];
    for (const [key, tally] of this.tallies.entries()) {
      if (tally.pending > 0) batch.push([key, tally]);
      else if (tally.windowEnds <= now && tally.sending === 0) ended.push(key);
    }
    for (const key of ended) this.tallies.delete(key);
    if (batch.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [key, tally] of batch) {
      tally.sending = tally.pending;
      tally.pending = 0;
      const counter = this.prefix + key;
      pipeline.incrby(counter, tally.sending).pexpire(counter, tally.windowMs, 'NX').pttl(counter);
    }
    let replies: [Error | null, unknown][] | null = null;
    try {
      replies = await pipeline.exec();
    } catch {
      // Redis away: the hits stay counted here and go with the next flush.
    }
    const at = Date.now();
    batch.forEach(([key, tally], i) => {
      const count = replies?.[i * 3];
      const ttl = replies?.[i * 3 + 2];
      if (!count || count[0] || !ttl || ttl[0]) {
        tally.pending += tally.sending;
        tally.sending = 0;
        return;
      }
      tally.sending = 0;
      // A tally replaced meanwhile (its window ended here) learns nothing from the old one.
      if (this.tallies.peek(key) !== tally) return;
      tally.shared = Number(count[1]);
      const ttlMs = Number(ttl[1]);
      if (ttlMs > 0) tally.windowEnds = at + ttlMs;
    });
  }
}
