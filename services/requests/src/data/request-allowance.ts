import type { RequestBudget } from '@homereport/kit';
import type { FastifyRequest } from 'fastify';
import { Messages } from '../domain/requests.js';

/** Every counter of the hourly allowance lives under `requests:`; anonymous ones per client address. */
const ALLOWANCE_PREFIX = 'requests:';
export const ANON_LIMIT_KEY_PREFIX = `${ALLOWANCE_PREFIX}anon-limit:`;
/** Signed-in accounts' counters, one per account whatever address it calls from. */
export const ACCOUNT_LIMIT_KEY_PREFIX = `${ALLOWANCE_PREFIX}account-limit:`;

/**
 * The hourly allowance of coverage requests (POST /api/requests): per client address for visitors
 * not signed in, per account for signed-in ones, whose burst of requests would otherwise queue
 * thousands of receipts ahead of everyone's verification emails. Counted once a request passed
 * validation (a typo costs nothing), by the kit's request budget; a Redis that is away lets the
 * request through, as a request someone typed is stored in MongoDB either way.
 */
export function coverageAllowance(perHour: { anonymous: number; account: number }): Omit<RequestBudget, 'redis'> {
  return {
    prefix: ALLOWANCE_PREFIX,
    windowSeconds: 3600,
    hook: 'preHandler',
    key: (req) => (req.identity ? `account-limit:${req.identity.userId}` : `anon-limit:${req.ip}`),
    max: (req) => (req.identity ? perHour.account : perHour.anonymous),
    message: (req: FastifyRequest, wait: number) =>
      req.identity ? Messages.tooManyForAccount(perHour.account, wait) : Messages.tooManyAnonymous,
  };
}
