import { AccountDeleted, Topics } from '@homereport/contracts';
import type { EventHandler } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import { type UserErasure, forgetUser } from '../domain/forget-user.js';
import type { StatsStore } from '../domain/ports.js';
import type { SavedReportStore } from '../domain/saved-reports.js';
import type { ShareStore } from '../domain/shares.js';

/**
 * auth's account-deleted: the user's requests stay without a link to them, and their views,
 * credits, activity, saved reports, share links and directory entry are erased. The kit's consumer claims each event id, and
 * the erasure is idempotent besides, so a redelivery changes nothing.
 */
export function accountDeletedHandlers(deps: {
  erasure: UserErasure;
  stats: StatsStore;
  saved: SavedReportStore;
  shares: ShareStore;
}): Record<string, EventHandler> {
  return {
    [Topics.accountDeleted]: async (event, log) => {
      if (!Value.Check(AccountDeleted, event.data)) {
        const problem = Value.Errors(AccountDeleted, event.data).First();
        throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
      }
      const userId = event.data.user_id;
      const outcome = await forgetUser(deps.erasure, deps.stats, userId);
      await deps.saved.forget(userId);
      // Their share links go too: a link then answers 404, as one never made.
      const shareLinksErased = await deps.shares.forget(userId);
      log.info({ userId, ...outcome, shareLinksErased }, 'deleted account forgotten');
    },
  };
}
