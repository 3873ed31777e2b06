import { randomUUID } from 'node:crypto';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { type Collection, MongoBulkWriteError } from 'mongodb';
import type { Logger } from '../logger.js';
import { type EventEnvelope, parseEnvelope } from './envelope.js';
import type { EventPublisher } from './publisher.js';

export type EventHandler = (event: EventEnvelope, log: Logger) => Promise<void>;

/**
 * Handles several events of one topic at once (all or none: a throw fails every one of them). The
 * consumer hands it the events of a fetched batch that it claimed together, at most
 * MAX_EVENTS_PER_CALL per call; a failing call is not retried as a whole: its events are then
 * handled one at a time (each a call with one event), so one bad event is retried and
 * dead-lettered on its own while the others go through.
 */
export type BatchEventHandler = (events: EventEnvelope[], log: Logger) => Promise<void>;

/** An EventHandler that the consumer may also call with several events at once. */
export interface BatchingEventHandler extends EventHandler {
  batch: BatchEventHandler;
}

/** Most events one BatchEventHandler call receives. */
export const MAX_EVENTS_PER_CALL = 200;

/**
 * For a topic whose events are cheaper handled together (one digest email for a burst of leads
 * instead of one each): the consumer claims a fetched batch's events in one write and passes them
 * in one call. Called with one event, it is an ordinary EventHandler.
 */
export function batchHandler(batch: BatchEventHandler): BatchingEventHandler {
  return Object.assign((event: EventEnvelope, log: Logger) => batch([event], log), { batch });
}

export interface ConsumerOptions {
  kafka: Kafka;
  groupId: string;
  handlers: Record<string, EventHandler>;
  /** Where processed event ids are remembered (unique by _id), so a redelivery does nothing twice. */
  processed: Collection<ProcessedEvent>;
  /**
   * Hour buckets of the ids claimed in `processed`, so old ones are deleted by `_id` (no TTL
   * indexes and no scans on our MongoDB server). Without it `processed` is not pruned.
   */
  ledger?: Collection<ProcessedLedger>;
  publisher: Pick<EventPublisher, 'sendRaw'>;
  logger: Logger;
  maxAttempts?: number;
  retryBaseMs?: number;
  /**
   * How long a claim stays another consumer's without being renewed. The holder renews it
   * while its handler runs; a claim left by a process that died is taken over after this.
   */
  claimLeaseMs?: number;
  /** How long processed ids are remembered: longer than Kafka keeps a message (7 days). */
  retentionMs?: number;
  /** How often old processed ids are pruned. */
  pruneIntervalMs?: number;
}

export interface ProcessedEvent {
  _id: string;
  type: string;
  status: 'processing' | 'done';
  /** Renewed by the holder while it works; a claim not renewed for a lease is free to take. */
  claimedAt: Date;
  /** Which consumer instance holds the claim. */
  owner?: string;
  doneAt?: Date;
  /**
   * Claimed together with others: the ledger chunk of that call (see claimTogether) holds the
   * claim's renewals and its `done`, one write for all of them instead of one per event.
   */
  batch?: string;
}

/**
 * `<group>:<hour>` lists the claim ids first made in that hour one at a time (`ids`) and counts
 * the chunks of ids claimed together then (`chunks`); `<group>:<hour>#<n>` holds chunk n's ids;
 * `<group>:pruned-through` is the pruning cursor.
 */
export interface ProcessedLedger {
  _id: string;
  ids?: string[];
  chunks?: number;
  hour?: Date;
  /** A chunk's claims as one: `processing` while its holder renews `claimedAt`, then `done`. */
  status?: 'processing' | 'done';
  claimedAt?: Date;
  doneAt?: Date;
}

export const deadLetterTopic = (groupId: string) => `${groupId}.dead-letter`;

const HOUR = 60 * 60 * 1000;

/** What became of one message; only `handled` and `dead-lettered` let its offset be committed. */
type Outcome = 'handled' | 'dead-lettered' | 'skipped' | 'abandoned';

/**
 * Runs handlers for the subscribed event types, each event id at most once per group, and never
 * commits past a message that was neither handled nor dead-lettered.
 *
 * - A claim in `processed` marks an event as being handled. The holder renews it while its
 *   handler runs; another consumer that meets a live claim waits (heartbeating) until it is done,
 *   and takes over a claim its holder stopped renewing (the process died mid-handler).
 * - A failing handler is retried with backoff, heartbeating in between so the group keeps the
 *   consumer; after `maxAttempts` the event goes to `<group>.dead-letter` with the error and the
 *   claim is released so an operator can replay it. If the dead-letter send fails, it is retried:
 *   the offset stays uncommitted meanwhile.
 * - On shutdown, or when the partition moves to another consumer, an unfinished event releases
 *   its claim and its offset is left uncommitted, so whoever consumes next handles it.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Consumer> {
  const { kafka, groupId, handlers, processed, publisher, logger, ledger } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const leaseMs = options.claimLeaseMs ?? 30_000;
  const owner = randomUUID();
  // The claim's conditional writes filter on exactly these fields: mongo-java-server uses an
  // index only for a filter with exactly its fields, and would otherwise scan processed_events.
  await processed.createIndexes([
    { key: { _id: 1, owner: 1 }, unique: true, name: 'claim_owner' },
    { key: { _id: 1, claimedAt: 1 }, unique: true, name: 'claim_takeover' },
    { key: { _id: 1, owner: 1, status: 1 }, unique: true, name: 'claim_release' },
  ]);
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, rebalanceTimeout: 10000, heartbeatInterval: 1000 });
  await consumer.connect();
  await consumer.subscribe({ topics: Object.keys(handlers), fromBeginning: true });

  let pruner: NodeJS.Timeout | undefined;
  if (ledger) {
    const retentionMs = options.retentionMs ?? 8 * 24 * HOUR;
    const intervalMs = options.pruneIntervalMs ?? HOUR;
    const prune = async () => {
      try {
        const removed = await pruneProcessed(processed, ledger, groupId, Date.now() - retentionMs);
        if (removed > 0) logger.debug({ removed }, 'old processed event ids pruned');
      } catch (err) {
        logger.debug({ err }, 'pruning processed event ids failed; will retry');
      }
      pruner = setTimeout(prune, intervalMs);
      pruner.unref();
    };
    pruner = setTimeout(prune, Math.min(intervalMs, 60_000));
    pruner.unref();
    consumer.on(consumer.events.STOP, () => clearTimeout(pruner));
  }

  /** One message, from claim to handled or dead-lettered; `abandoned` when the consumer must let go. */
  const consume = async (topic: string, partition: number, message: KafkaMessage, ctl: Control): Promise<Outcome> => {
    const event = parseEnvelope(message.value);
    const log = logger.child({ reqId: event?.correlationId, eventId: event?.id, eventType: topic });
    const handler = handlers[topic];
    if (!event || !handler) {
      log.error({ partition, offset: message.offset }, 'unreadable event sent to dead-letter topic');
      return deadLetter(topic, message, 'unreadable envelope', log, ctl);
    }

    const claimId = `${groupId}:${event.id}`;
    for (let waited = 0; ; waited++) {
      const state = await claim(processed, ledger, groupId, claimId, event.type, owner, leaseMs);
      if (state === 'done') {
        log.info('event already processed; skipped');
        return 'skipped';
      }
      if (state === 'claimed') break;
      if (waited === 0) log.info('event is being handled by another consumer; waiting for it');
      if (!(await ctl.pause(Math.min(1000, leaseMs / 3)))) return 'abandoned';
    }

    // Keep the claim (and the group membership) alive however long the handler takes.
    const renewal = setInterval(() => {
      void processed
        .findOneAndUpdate({ _id: claimId, owner }, { $set: { claimedAt: new Date() } }, { projection: { _id: 1 } })
        .catch(() => undefined);
      void ctl.heartbeat().catch(() => undefined);
    }, leaseMs / 3);
    let outcome: Outcome = 'abandoned';
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await handler(event, log);
          await processed.findOneAndUpdate(
            { _id: claimId, owner },
            { $set: { status: 'done', doneAt: new Date() } },
            { projection: { _id: 1 } },
          );
          outcome = 'handled';
          return outcome;
        } catch (err) {
          if (attempt >= maxAttempts) {
            log.error({ err, attempts: attempt }, 'event failed every attempt; sending it to the dead-letter topic');
            outcome = await deadLetter(topic, message, String((err as Error)?.message ?? err), log, ctl);
            return outcome;
          }
          log.warn({ err, attempt }, 'event handler failed; retrying');
          if (!(await ctl.pause(retryBaseMs * 2 ** (attempt - 1)))) return outcome;
        }
      }
    } finally {
      clearInterval(renewal);
      // Handled: the claim says done. Otherwise free it: an operator's replay (dead-lettered) or
      // the next consumer (abandoned) handles the event afresh.
      if (outcome !== 'handled') await processed.deleteOne({ _id: claimId, owner, status: 'processing' });
    }
  };

  /**
   * Several messages of a topic with a BatchingEventHandler: the events are claimed in one write
   * and handled in one call. What that leaves (unreadable messages, events another consumer
   * claimed or handled before, and every event of a call that failed) goes one at a time through
   * `consume`, afterwards, in offset order: retries, waits and dead-lettering stay per event.
   */
  const consumeTogether = async (
    topic: string,
    partition: number,
    messages: KafkaMessage[],
    handler: BatchingEventHandler,
    ctl: Control,
  ): Promise<Outcome> => {
    const readable: { message: KafkaMessage; event: EventEnvelope }[] = [];
    const oneByOne: KafkaMessage[] = [];
    for (const message of messages) {
      const event = parseEnvelope(message.value);
      if (event) readable.push({ message, event });
      else oneByOne.push(message);
    }
    const { claimed, chunk } = await claimTogether(
      processed,
      ledger,
      groupId,
      readable.map((r) => r.event),
      owner,
    );
    const mine = readable.filter((r) => claimed.has(r.event.id));
    for (const r of readable) if (!claimed.has(r.event.id)) oneByOne.push(r.message);
    if (
      mine.length > 0 &&
      !(await handleTogether(
        topic,
        mine.map((r) => r.event),
        handler,
        chunk,
      ))
    ) {
      for (const r of mine) oneByOne.push(r.message);
    }
    oneByOne.sort((a, b) => Number(BigInt(a.offset) - BigInt(b.offset)));
    for (const message of oneByOne) {
      if (!ctl.active()) return 'abandoned';
      if ((await consume(topic, partition, message, ctl)) === 'abandoned') return 'abandoned';
    }
    return 'handled';
  };

  /** One call for events claimed together; false (claims released) when it or its bookkeeping failed. */
  const handleTogether = async (
    topic: string,
    events: EventEnvelope[],
    handler: BatchingEventHandler,
    chunk: string | undefined,
  ) => {
    const log = logger.child({ eventType: topic });
    const claims = events.map((e) => `${groupId}:${e.id}`);
    // With a chunk, one write renews or finishes every claim of the call (its `_id` alone is the
    // filter: the chunk is this call's own). A claim taken over meanwhile no longer names it.
    const onAll = (set: Partial<ProcessedEvent>) =>
      chunk && ledger
        ? ledger.updateOne({ _id: chunk }, { $set: set })
        : processed.bulkWrite(
            claims.map((_id) => ({ updateOne: { filter: { _id, owner }, update: { $set: set } } })),
            { ordered: false },
          );
    const renewal = setInterval(() => {
      void onAll({ claimedAt: new Date() }).catch(() => undefined);
    }, leaseMs / 3);
    try {
      await handler.batch(events, log);
      await onAll({ status: 'done', doneAt: new Date() });
      log.debug({ events: events.length }, 'events handled together');
      return true;
    } catch (err) {
      log.warn({ err, events: events.length }, 'events failed together; handling them one at a time');
      await processed
        .bulkWrite(
          claims.map((_id) => ({ deleteOne: { filter: { _id, owner, status: 'processing' as const } } })),
          { ordered: false },
        )
        .catch(() => undefined);
      return false;
    } finally {
      clearInterval(renewal);
    }
  };

  /** Sends the message to the dead-letter topic, retrying until it is there or the consumer lets go. */
  const deadLetter = async (
    topic: string,
    message: KafkaMessage,
    error: string,
    log: Logger,
    ctl: Control,
  ): Promise<Outcome> => {
    for (let attempt = 1; ; attempt++) {
      try {
        await publisher.sendRaw(deadLetterTopic(groupId), [
          { key: message.key, value: message.value, headers: { 'original-topic': topic, error: error.slice(0, 1000) } },
        ]);
        if (attempt > 1) log.info({ attempts: attempt }, 'event reached the dead-letter topic');
        return 'dead-lettered';
      } catch (err) {
        if (attempt === 1) log.warn({ err }, 'dead-letter send failed; holding the event and retrying');
        if (attempt === 10) log.error({ err }, 'dead-letter topic unreachable; the partition waits until it is back');
        if (!(await ctl.pause(Math.min(retryBaseMs * 2 ** (attempt - 1), 30_000)))) return 'abandoned';
      }
    }
  };

  await consumer.run({
    eachBatchAutoResolve: false,
    eachBatch: async (payload: EachBatchPayload) => {
      const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale } = payload;
      const ctl = new Control(heartbeat, () => isRunning() && !isStale());
      const handler = handlers[batch.topic];
      const step = isBatching(handler) ? MAX_EVENTS_PER_CALL : 1;
      for (let i = 0; i < batch.messages.length; i += step) {
        if (!ctl.active()) return;
        const messages = batch.messages.slice(i, i + step);
        const outcome =
          messages.length > 1 && isBatching(handler)
            ? await consumeTogether(batch.topic, batch.partition, messages, handler, ctl)
            : await consume(batch.topic, batch.partition, messages[0] as KafkaMessage, ctl);
        // Abandoned: leave these and every later offset uncommitted; they are delivered again.
        if (outcome === 'abandoned') return;
        resolveOffset((messages.at(-1) as KafkaMessage).offset);
        await commitOffsetsIfNecessary();
        await heartbeat();
      }
    },
  });
  return consumer;
}

/** Waits that keep the group membership alive and stop early when the consumer must let go. */
class Control {
  constructor(
    readonly heartbeat: () => Promise<void>,
    readonly active: () => boolean,
  ) {}

  /** Sleeps `ms` in short steps with heartbeats; false when the consumer is stopping or lost the partition. */
  async pause(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (this.active()) {
      await this.heartbeat();
      const left = until - Date.now();
      if (left <= 0) return true;
      await sleep(Math.min(left, 500));
    }
    return false;
  }
}

/**
 * Takes the claim on an event for `owner`: `claimed` (ours now), `done` (handled before) or
 * `held` (another consumer renews it; wait). A claim not renewed for `leaseMs` is taken over.
 */
async function claim(
  processed: Collection<ProcessedEvent>,
  ledger: Collection<ProcessedLedger> | undefined,
  groupId: string,
  id: string,
  type: string,
  owner: string,
  leaseMs: number,
): Promise<'claimed' | 'done' | 'held'> {
  const now = new Date();
  try {
    await processed.insertOne({ _id: id, type, status: 'processing', claimedAt: now, owner });
    // Remembered under the hour it was first claimed, so pruning finds it by key (see pruneProcessed).
    await ledger?.findOneAndUpdate(
      { _id: ledgerId(groupId, now) },
      { $push: { ids: id } },
      { upsert: true, projection: { _id: 1 } },
    );
    return 'claimed';
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
  }
  const existing = await processed.findOne({ _id: id });
  if (!existing) return claim(processed, ledger, groupId, id, type, owner, leaseMs);
  if (existing.status === 'done') return 'done';
  // Claimed together with others: their chunk says whether they are done and when last renewed.
  // A chunk gone (pruned, or its claimer died before writing it) renews nothing.
  const chunk = existing.batch && ledger ? await ledger.findOne({ _id: existing.batch }) : null;
  if (chunk?.status === 'done') return 'done';
  const renewedAt = chunk?.claimedAt ?? existing.claimedAt;
  if (existing.owner !== owner && now.getTime() - renewedAt.getTime() < leaseMs) return 'held';
  // Filter of exactly { _id, claimedAt }: the claim_takeover index (see startConsumer). Taken
  // over, the claim leaves its chunk: the chunk's `done` is no longer this event's.
  const taken = await processed.findOneAndUpdate(
    { _id: id, claimedAt: existing.claimedAt },
    { $set: { claimedAt: now, owner }, $unset: { batch: '' } },
    { projection: { _id: 1 } },
  );
  return taken ? 'claimed' : 'held';
}

const ledgerId = (groupId: string, at: Date) => `${groupId}:${at.toISOString().slice(0, 13)}`;
const chunkId = (hourId: string, n: number) => `${hourId}#${n}`;

const isBatching = (handler: EventHandler | undefined): handler is BatchingEventHandler =>
  typeof (handler as Partial<BatchingEventHandler> | undefined)?.batch === 'function';

/**
 * Claims events for `owner` in one write; returns the ids of those it claimed and, with a ledger,
 * the chunk that holds them. The others were claimed before (handled, being handled, or left by a
 * consumer that died) and are for `claim`, one at a time.
 *
 * The ids go into the ledger first, as a chunk of their own: a bounded document per call, where
 * pushing onto the hour's list would rewrite an ever larger one (100,000 ids an hour is
 * megabytes). A listed id that was not claimed here only makes pruning try it twice. The chunk
 * also carries the claims' state: renewing or finishing them is one write to it, where updating
 * each claim cost the database more than inserting it.
 */
async function claimTogether(
  processed: Collection<ProcessedEvent>,
  ledger: Collection<ProcessedLedger> | undefined,
  groupId: string,
  events: EventEnvelope[],
  owner: string,
): Promise<{ claimed: Set<string>; chunk?: string }> {
  if (events.length === 0) return { claimed: new Set() };
  const now = new Date();
  const claims = events.map((e) => `${groupId}:${e.id}`);
  let chunk: string | undefined;
  if (ledger) {
    const hourId = ledgerId(groupId, now);
    const hour = await ledger.findOneAndUpdate(
      { _id: hourId },
      { $inc: { chunks: 1 } },
      { upsert: true, returnDocument: 'after', projection: { chunks: 1 } },
    );
    chunk = chunkId(hourId, hour?.chunks ?? 0);
    await ledger.insertOne({ _id: chunk, ids: claims, status: 'processing', claimedAt: now });
  }
  const claimed = new Set(events.map((e) => e.id));
  try {
    await processed.insertMany(
      events.map((e, i) => ({
        _id: claims[i] as string,
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
    if (!(err instanceof MongoBulkWriteError)) throw err;
    for (const failed of [err.writeErrors].flat()) claimed.delete((events[failed.index] as EventEnvelope).id);
  }
  return { claimed, chunk };
}

/**
 * Deletes the processed ids first claimed before `cutoff`, hour by hour, each hour's ids read
 * from its ledger document by `_id` and deleted by `_id`. A cursor document remembers the last
 * pruned hour, so a service that was down for days catches up. Returns how many were deleted.
 */
export async function pruneProcessed(
  processed: Collection<ProcessedEvent>,
  ledger: Collection<ProcessedLedger>,
  groupId: string,
  cutoff: number,
  maxHours = 24 * 14,
): Promise<number> {
  const cursorId = `${groupId}:pruned-through`;
  const end = Math.floor(cutoff / HOUR) * HOUR;
  const cursor = await ledger.findOne({ _id: cursorId });
  let hour = cursor?.hour ? cursor.hour.getTime() : end - 2 * 24 * HOUR;
  let removed = 0;
  for (let steps = 0; hour < end && steps < maxHours; steps++, hour += HOUR) {
    const bucketId = ledgerId(groupId, new Date(hour));
    const bucket = await ledger.findOne({ _id: bucketId });
    removed += await deleteClaims(processed, bucket?.ids ?? []);
    for (let n = 1; n <= (bucket?.chunks ?? 0); n++) {
      const chunk = await ledger.findOne({ _id: chunkId(bucketId, n) });
      if (!chunk) continue; // its claimer died before writing it
      removed += await deleteClaims(processed, chunk.ids ?? []);
      await ledger.deleteOne({ _id: chunk._id });
    }
    if (bucket) await ledger.deleteOne({ _id: bucketId });
    await ledger.findOneAndUpdate({ _id: cursorId }, { $set: { hour: new Date(hour + HOUR) } }, { upsert: true });
  }
  return removed;
}

async function deleteClaims(processed: Collection<ProcessedEvent>, ids: string[]): Promise<number> {
  let removed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    removed += (await processed.deleteMany({ _id: { $in: ids.slice(i, i + 500) } })).deletedCount;
  }
  return removed;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
