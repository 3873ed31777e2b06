import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { CACHE_READ_DEADLINE_MS } from './cache-generation.js';
import { tooManyRequests } from './errors.js';

export { default as rateLimit } from '@fastify/rate-limit';

export interface RequestBudget {
  /** Where the budget's counters live in Redis: `prefix` + the key of the caller. */
  prefix: string;
  /** Requests allowed per window, or per caller (a signed-in account and an address may differ). */
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
}

const NO_HEADERS = {
  'x-ratelimit-limit': false,
  'x-ratelimit-remaining': false,
  'x-ratelimit-reset': false,
  'retry-after': false,
} as const;

/**
 * The options of @fastify/rate-limit for one budget, registered as the plugin in the encapsulated
 * context whose routes it covers:
 *
 *     await app.register(async (limited) => {
 *       await limited.register(rateLimit, requestBudget(redis, { prefix, max, windowSeconds, message }));
 *       limited.get(...);
 *     });
 *
 * Every count is one script call in Redis (budgetStore), so the budget is exact and shared by
 * every replica. A Redis that is away, or slower than a cache read may be, lets the request
 * through: like a cache that is away, a budget that cannot be counted is not a reason to refuse
 * anyone, and the dependency metrics and readiness show the outage. A refusal is the kit's 429
 * `{ error, code: 'RATE_LIMITED' }` with `Retry-After`; no `x-ratelimit-*` headers are added to
 * other answers.
 */
export function requestBudget(redis: Redis, budget: RequestBudget): RateLimitPluginOptions {
  const { max, message, key, onExceeded } = budget;
  return {
    global: true,
    store: budgetStore(redis, budget.prefix),
    max: typeof max === 'number' ? max : (req) => max(req),
    timeWindow: budget.windowSeconds * 1000,
    hook: budget.hook ?? 'onRequest',
    skipOnError: true,
    ...(key ? { keyGenerator: key } : {}),
    ...(onExceeded ? { onExceeded: (req) => onExceeded(req) } : {}),
    // The kit's error answer sets Retry-After from the error (errors.ts).
    addHeaders: NO_HEADERS,
    addHeadersOnExceeding: NO_HEADERS,
    errorResponseBuilder: (req, context) => {
      const wait = Math.max(1, Math.ceil(context.ttl / 1000));
      return tooManyRequests(wait, typeof message === 'string' ? message : message(req, wait));
    },
  };
}

/**
 * Counts one hit in a window that opens with the first one; answers the count and the window's
 * milliseconds left. KEYS[1] the caller's counter; ARGV[1] the window in milliseconds.
 */
const COUNT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type CountCommand = (key: string, windowMs: number) => Promise<[number, number]>;

/**
 * The budget's store for @fastify/rate-limit (its documented `store` option): the plugin's own
 * Redis store has no deadline of its own, so a hung Redis would hold every request for the whole
 * command deadline (REDIS_TIMEOUT_MS) before it is let through; here a count not answered within
 * a cache read's deadline lets the request through at once (a late answer still counts). One
 * counter per caller for every route of the context (`child` is the same store): one budget.
 */
function budgetStore(redis: Redis, prefix: string): FastifyRateLimitStoreCtor {
  const commands = redis as unknown as { budgetCount?: CountCommand };
  if (!commands.budgetCount) redis.defineCommand('budgetCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  const count = commands.budgetCount as CountCommand;
  return class BudgetStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (err: Error | null, result?: { current: number; ttl: number }) => void,
      windowMs: number,
    ) {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        callback(new Error(`no count from Redis within ${CACHE_READ_DEADLINE_MS} ms`));
      }, CACHE_READ_DEADLINE_MS);
      count.call(redis, prefix + key, windowMs).then(
        ([current, ttl]) => {
          if (settled) return;
          clearTimeout(timer);
          callback(null, { current, ttl });
        },
        (err: Error) => {
          if (settled) return;
          clearTimeout(timer);
          callback(err);
        },
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
