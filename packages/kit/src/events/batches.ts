import type { KafkaMessage } from 'kafkajs';
import { type Logger, childWithTrace } from '../logger.js';
import { runInTrace } from '../tracing/context.js';
import { endSpan } from '../tracing/export.js';
import { continueBatch } from '../tracing/kafka.js';
import { ClaimEffects, type Claims, type ProcessedEvent, chunkId, ledgerId } from './claims.js';
import { type EventEnvelope, parseEnvelope } from './envelope.js';
import type { BatchingEventHandler } from './handlers.js';

/**
 * The `traceparent` header each event read here was delivered with: its producer span's, a more
 * precise parent than the envelope's stored one (the request's span), which the one-at-a-time
 * path uses too. Kept aside, not written into the envelope the handler receives.
 */
const delivered = new WeakMap<EventEnvelope, string>();

/** A call's messages split into readable events and the rest (unreadable: for the one-at-a-time path). */
export function readEnvelopes(messages: KafkaMessage[]) {
  const readable: { message: KafkaMessage; event: EventEnvelope }[] = [];
  const unreadable: KafkaMessage[] = [];
  for (const message of messages) {
    const event = parseEnvelope(message.value);
    if (!event) {
      unreadable.push(message);
      continue;
    }
    const header = message.headers?.traceparent?.toString();
    if (header) delivered.set(event, header);
    readable.push({ message, event });
  }
  return { readable, unreadable };
}

/** Messages in the order of their offsets, so what is left of a call is handled as Kafka delivered it. */
export const byOffset = (messages: KafkaMessage[]) =>
  [...messages].sort((a, b) => Number(BigInt(a.offset) - BigInt(b.offset)));

/**
 * Events claimed in one write: renewed, finished or released together. With a ledger, the
 * chunk document holds their state, so each of those is one write for the whole call.
 */
export class ClaimedTogether {
  constructor(
    private readonly claims: Claims,
    /** The ids of the events this call claimed (the others were claimed before). */
    readonly eventIds: ReadonlySet<string>,
    /** The ledger chunk holding the claims' state, when there is a ledger. */
    readonly chunk: string | undefined,
  ) {}

  private get claimIds() {
    return [...this.eventIds].map((id) => this.claims.idOf(id));
  }

  /**
   * With a chunk, one write renews or finishes every claim of the call (its `_id` alone is the
   * filter: the chunk is this call's own). A claim taken over meanwhile no longer names it.
   */
  private async onAll(set: Partial<ProcessedEvent>): Promise<void> {
    const { ledger, processed, owner } = this.claims;
    if (this.chunk && ledger) {
      await ledger.updateOne({ _id: this.chunk }, { $set: set });
      return;
    }
    await processed.bulkWrite(
      this.claimIds.map((_id) => ({ updateOne: { filter: { _id, owner }, update: { $set: set } } })),
      { ordered: false },
    );
  }

  renew(): Promise<void> {
    return this.onAll({ claimedAt: new Date() });
  }

  async finish(): Promise<void> {
    await this.onAll({ status: 'done', doneAt: new Date() });
    this.claims.settled(this.eventIds);
  }

  /**
   * Frees the claims still processing, so the events can be claimed again one at a time. Those
   * with effects recorded stay, free to take at once (see Claims.release).
   */
  async release(effects?: Pick<ClaimEffects, 'any'>): Promise<void> {
    const { processed, owner } = this.claims;
    await processed.bulkWrite(
      [...this.eventIds].map((eventId) => {
        const filter = { _id: this.claims.idOf(eventId), owner, status: 'processing' as const };
        return effects?.any(eventId)
          ? { updateOne: { filter, update: this.claims.freeing(eventId) } }
          : { deleteOne: { filter } };
      }),
      { ordered: false },
    );
    this.claims.settled(this.eventIds);
  }
}

/**
 * Claims events in one write; the returned claims name the events claimed here. The others were
 * claimed before (handled, being handled, or left by a consumer that died) and are for
 * `Claims.claim`, one at a time.
 *
 * The ids go into the ledger first, as a chunk of their own: a bounded document per call, where
 * pushing onto the hour's list would rewrite an ever larger one (100,000 ids an hour is
 * megabytes). A listed id that was not claimed here only makes pruning try it twice. The chunk
 * also carries the claims' state: renewing or finishing them is one write to it, where updating
 * each claim cost the database more than inserting it.
 */
export async function claimTogether(claims: Claims, delivered: EventEnvelope[]): Promise<ClaimedTogether> {
  // One claim per event: an event delivered twice in one fetch (the outbox publishes at least
  // once) would fail its second insert, and that failure would unclaim it while its first
  // insert stood under this call's chunk, which then said done for an event never handled.
  const events = [...new Map(delivered.map((e) => [e.id, e])).values()];
  if (events.length === 0) return new ClaimedTogether(claims, new Set(), undefined);
  const { ledger, processed, owner, groupId } = claims;
  const now = new Date();
  const ids = events.map((e) => claims.idOf(e.id));
  let chunk: string | undefined;
  if (ledger) {
    const hourId = ledgerId(groupId, now);
    const hour = await ledger.findOneAndUpdate(
      { _id: hourId },
      { $inc: { chunks: 1 } },
      { upsert: true, returnDocument: 'after', projection: { chunks: 1 } },
    );
    chunk = chunkId(hourId, hour?.chunks ?? 0);
    await ledger.insertOne({ _id: chunk, ids, status: 'processing', claimedAt: now });
  }
  const claimed = new Set(events.map((e) => e.id));
  try {
    await processed.insertMany(
      events.map((e, i) => ({
        _id: ids[i] as string,
        type: e.type,
        status: 'processing' as const,
        claimedAt: now,
        owner,
        ...(chunk ? { batch: chunk } : {}),
      })),
      { ordered: false },
    );
  } catch (err) {
    // Answered per item: the items it names were not inserted (a duplicate _id, mostly).
    // Known by name: the kit does not import the driver (a process without MongoDB never loads it).
    if (!(err instanceof Error) || err.name !== 'MongoBulkWriteError') throw err;
    const { writeErrors } = err as Error & { writeErrors: { index: number } | { index: number }[] };
    for (const failed of [writeErrors].flat()) claimed.delete((events[failed.index] as EventEnvelope).id);
  }
  return new ClaimedTogether(claims, claimed, chunk);
}

/**
 * One call of a batching handler for events claimed together, their claims kept alive meanwhile.
 * True when handled (claims done); false when it or its bookkeeping failed (claims released:
 * the caller handles the events one at a time).
 */
export async function handleTogether(
  claims: Claims,
  together: ClaimedTogether,
  events: EventEnvelope[],
  handler: BatchingEventHandler,
  log: Logger,
): Promise<boolean> {
  const stopRenewing = claims.keepAlive(() => together.renew());
  // Freshly claimed: no earlier effects to know of.
  const effects = new ClaimEffects(claims);
  // One span for the call, in the first event's trace and linked to the others' (tracing/kafka.ts).
  const { trace, span, traces } = continueBatch(
    events[0]?.type ?? 'events',
    events.map((e) => ({ traceparent: delivered.get(e) ?? e.traceparent })),
  );
  // The call's lines name the batch; one line per event ties its trace and request to it, so
  // `grep <traceId>` or `grep <reqId>` of any event leads to the batch's lines.
  const batch = trace.spanId;
  const batchLog = childWithTrace(log, { batch, events: events.length }, trace.traceId);
  for (const [i, e] of events.entries()) {
    const sender = traces[i];
    const bindings = { reqId: e.correlationId, eventId: e.id, batch };
    (sender ? childWithTrace(log, bindings, sender.traceId) : log.child(bindings)).info('event taken into a batch');
  }
  try {
    await runInTrace(trace, () => handler.batch(events, batchLog, effects));
    await together.finish();
    batchLog.debug('events handled together');
    if (span) endSpan(span);
    return true;
  } catch (err) {
    batchLog.warn({ err }, 'events failed together; handling them one at a time');
    if (span) endSpan(span, err);
    await together.release(effects).catch(() => undefined);
    return false;
  } finally {
    stopRenewing();
  }
}
