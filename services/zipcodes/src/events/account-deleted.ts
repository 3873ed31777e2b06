import { AccountDeleted, Topics } from '@homereport/contracts';
import type { EventHandler } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import type { WatchStore } from '../domain/zip-watches.js';

/** The consumer group of the zipcodes service. */
export const CONSUMER_GROUP = 'zipcodes';

/**
 * auth's account-deleted: the user's watches (and the address kept with them) go, so no later
 * import emails a deleted account. Idempotent: a redelivery finds nothing left.
 */
export function accountDeletedHandlers(watches: Pick<WatchStore, 'forget'>): Record<string, EventHandler> {
  return {
    [Topics.accountDeleted]: async (event, log) => {
      if (!Value.Check(AccountDeleted, event.data)) {
        const problem = Value.Errors(AccountDeleted, event.data).First();
        throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
      }
      await watches.forget(event.data.user_id);
      log.info({ userId: event.data.user_id }, 'deleted account: ZIP watches erased');
    },
  };
}
