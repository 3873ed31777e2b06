import { AccountDeleted, Topics } from '@homereport/contracts';
import type { EventHandler } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import { type AddressErasure, forgetAddress } from '../domain/forget-address.js';

/**
 * auth's account-deleted: the address leaves the records of emails sent and contact messages.
 * Logged with the user id and counts only, never the address.
 */
export function accountDeletedHandlers(erasure: AddressErasure): Record<string, EventHandler> {
  return {
    [Topics.accountDeleted]: async (event, log) => {
      if (!Value.Check(AccountDeleted, event.data)) {
        const problem = Value.Errors(AccountDeleted, event.data).First();
        throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
      }
      const erased = await forgetAddress(erasure, event.data.email);
      log.info({ userId: event.data.user_id, ...erased }, 'deleted account address erased');
    },
  };
}
