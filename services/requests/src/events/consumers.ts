import { ReportViewed, RequestStatusChanged, RequestSubmitted, Topics } from '@homereport/contracts';
import type { EventHandler } from '@homereport/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { RequestStore, StatsStore, UserDirectory, ViewLedger } from '../domain/ports.js';
import type { Reports } from '../domain/reports.js';
import { type Requests, followerMark } from '../domain/requests.js';
import { observeUser } from '../domain/user-counts.js';

export const CONSUMER_GROUP = 'requests';

/** Of auth's user events only the user id is read here, whatever else they carry. */
const UserEvent = Type.Object({ userId: Type.String({ minLength: 1 }) });

interface ConsumerDeps {
  requests: Requests;
  reports: Reports;
  store: RequestStore;
  ledger: ViewLedger;
  directory: UserDirectory;
  stats: StatsStore;
}

/**
 * Our own events come back as a backstop: the request that wrote a change applies its follow-up
 * effects (counters, lists) at once and clears the document's pending mark; if it died in
 * between, the mark is still there when the event arrives here, and the effects are applied
 * (idempotently) now. auth's user events feed the dashboard's user counters.
 */
export function requestHandlers(deps: ConsumerDeps): Record<string, EventHandler> {
  const handle =
    <S extends TSchema>(schema: S, run: (data: Static<S>, eventId: string) => Promise<void>): EventHandler =>
    async (event) => {
      if (!Value.Check(schema, event.data)) {
        const problem = Value.Errors(schema, event.data).First();
        throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
      }
      await run(event.data, event.id);
    };

  return {
    [Topics.requestSubmitted]: handle(RequestSubmitted, async (data, eventId) => {
      const record = await deps.store.find(data.request.id);
      if (record?.pending.includes(eventId)) await deps.requests.afterSubmit(record, eventId);
    }),
    [Topics.requestStatusChanged]: handle(RequestStatusChanged, async (data, eventId) => {
      const record = await deps.store.find(data.requestId);
      if (record?.pending.includes(eventId))
        await deps.requests.afterStatusChange(data.requestId, eventId, data.from, data.to, {
          by: data.by,
          correlationId: eventId,
        });
      // A follower's change (its property covered): its own effects only.
      else if (record?.pending.includes(followerMark(eventId)))
        await deps.requests.afterStatusChange(data.requestId, followerMark(eventId), data.from, data.to, null);
    }),
    [Topics.reportViewed]: handle(ReportViewed, async (data) => {
      const view = await deps.ledger.find(data.viewId);
      if (view?.pending) await deps.reports.afterView(view);
    }),
    [Topics.userRegistered]: handle(UserEvent, (data) => observeUser(deps.directory, deps.stats, data.userId, false)),
    [Topics.userVerified]: handle(UserEvent, (data) => observeUser(deps.directory, deps.stats, data.userId, true)),
  };
}
