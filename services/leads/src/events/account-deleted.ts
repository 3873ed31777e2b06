import { AccountDeleted, Topics } from '@homereport/contracts';
import type { EventHandler } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import { type AccountErasure, forgetAccount } from '../domain/forget-account.js';

/** The consumer group of this service; the kit remembers processed event ids per group. */
export const CONSUMER_GROUP = 'leads';

/**
 * auth's account-deleted: a deleted admin's name leaves the leads they moved, and leads that
 * carry the address lose it. Logged with the user id and counts only, never the address.
 */
export function accountDeletedHandlers(erasure: AccountErasure): Record<string, EventHandler> {
  return {
    [Topics.accountDeleted]: async (event, log) => {
      if (!Value.Check(AccountDeleted, event.data)) {
        const problem = Value.Errors(AccountDeleted, event.data).First();
        throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
      }
      const erased = await forgetAccount(erasure, event.data.user_id, event.data.email);
      log.info({ userId: event.data.user_id, ...erased }, 'deleted account erased from leads');
    },
  };
}
