import { SpanKind } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { Collection } from 'mongodb';
import { namedError } from '../errors.js';
import { type Logger, childWithTrace } from '../logger.js';
import { countConsumed, watchConsumerLag, zeroConsumerCounters } from '../metrics/consumer.js';
import { runInTrace } from '../tracing/context.js';
import { continueWithSpan, endSpan } from '../tracing/export.js';
import { byOffset, claimTogether, handleTogether, readEnvelopes } from './batches.js';
import {
  ClaimEffects,
  Claims,
  type ProcessedEvent,
  type ProcessedLedger,
  type PruningOptions,
  schedulePruning,
} from './claims.js';
import { parseEnvelope } from './envelope.js';
import { GROUP_TIMING } from './group-timing.js';
import { type BatchingEventHandler, type EventHandler, isBatching, messagesPerCall } from './handlers.js';
import type { EventPublisher } from './publisher.js';
import { Control, DeadLetters, type Outcome, errorText, withRetries } from './retry.js';

// The consumer's parts, re-exported so the kit's public names stay where services import them.
export { batchHandler, effectsInMemory, MAX_EVENTS_PER_CALL } from './handlers.js';
export type { BatchEventHandler, BatchingEventHandler, Effects, EventHandler } from './handlers.js';
export { CLAIM_INDEXES, pruneProcessed } from './claims.js';
export type { ProcessedEvent, ProcessedLedger } from './claims.js';
export { deadLetterTopic } from './retry.js';

export interface ConsumerOptions extends PruningOptions {
  kafka: Kafka;
  /** The Kafka consumer group: its members share the partitions of the handlers' topics. */
  groupId: string;
  /**
   * The group whose claims this consumer takes and whose dead-letter topic it sends to, when not
   * `groupId`. Consumers of one service that each take some of its topics in a Kafka group of
   * their own (so one topic's backlog never holds up another's events) name the service's group
   * here: an event is then handled once among all of them, also while a rolling update runs the
   * old split beside the new one and both read a topic.
   */
  claimsGroup?: string;
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
  /**
   * Told when kafkajs stops the consumer after an error it does not restart from itself
   * (`restart: false`), from the consumer's first join on: before `run` returns.
   */
  onCrash?: (error: Error) => void;
}

/** A started consumer: `disconnect` leaves the group and stops watching its lag. */
export interface EventConsumer {
  /** The kafkajs consumer, for its events and group description; disconnect through this object. */
  readonly kafkaConsumer: Consumer;
  disconnect(): Promise<void>;
}

/** What the steps of consuming share: one group's handlers, claims, dead letters and retries. */
interface ConsumerParts {
  handlers: Record<string, EventHandler>;
  logger: Logger;
  claims: Claims;
  deadLetters: DeadLetters;
  policy: { maxAttempts: number; retryBaseMs: number };
}

/**
 * Runs handlers for the subscribed event types, each event id at most once per group, and never
 * commits past a message that was neither handled nor dead-lettered. This function only composes
 * the parts:
 *
 * - claims.ts: a claim in `processed` marks an event as being handled. The holder renews it
 *   while its handler runs; another consumer that meets a live claim waits (heartbeating) until
 *   it is done, and takes over a claim its holder stopped renewing (the process died mid-handler).
 * - retry.ts: a failing handler is retried with backoff, heartbeating in between so the group
 *   keeps the consumer; after `maxAttempts` the event goes to `<group>.dead-letter` with the error
 *   and the claim is released so an operator can replay it. If the dead-letter send fails, it is
 *   retried: the offset stays uncommitted meanwhile.
 * - batches.ts: a batching handler's events are claimed in one write and handled in one call.
 *
 * On shutdown, or when the partition moves to another consumer, an unfinished event releases its
 * claim and its offset is left uncommitted, so whoever consumes next handles it.
 */
export async function startConsumer(options: ConsumerOptions): Promise<EventConsumer> {
  const { kafka, groupId, handlers, logger, ledger } = options;
  const policy = { maxAttempts: options.maxAttempts ?? 5, retryBaseMs: options.retryBaseMs ?? 500 };
  const claimsGroup = options.claimsGroup ?? groupId;
  const claims = new Claims(options.processed, ledger, claimsGroup, options.claimLeaseMs ?? 30_000);
  const deadLetters = new DeadLetters(claimsGroup, options.publisher, policy.retryBaseMs);
  zeroConsumerCounters(Object.keys(handlers));
  const consumer = kafka.consumer({ groupId, ...GROUP_TIMING });
  const { onCrash } = options;
  if (onCrash)
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart) onCrash(payload.error);
    });
  await consumer.connect();
  await consumer.subscribe({ topics: Object.keys(handlers), fromBeginning: true });
  const stopWatchingLag = watchConsumerLag(kafka, groupId, Object.keys(handlers));
  if (ledger) consumer.on(consumer.events.STOP, schedulePruning(claims, ledger, options, logger));

  const parts: ConsumerParts = { handlers, logger, claims, deadLetters, policy };
  await consumer.run({
    eachBatchAutoResolve: false,
    eachBatch: (payload) => consumeBatch(parts, payload),
  });
  return {
    kafkaConsumer: consumer,
    async disconnect() {
      await stopWatchingLag();
      await consumer.disconnect();
    },
  };
}

/** One message, from claim to handled or dead-lettered; `abandoned` when the consumer must let go. */
async function consume(
  parts: ConsumerParts,
  topic: string,
  partition: number,
  message: KafkaMessage,
  ctl: Control,
): Promise<Outcome> {
  const { handlers, logger, claims, deadLetters, policy } = parts;
  const event = parseEnvelope(message.value);
  // The producer's trace goes on here: these lines and the events the handler records carry it.
  const { trace, span } = continueWithSpan(
    message.headers?.traceparent?.toString() ?? event?.traceparent,
    `${topic} process`,
    SpanKind.CONSUMER,
    { 'messaging.system': 'kafka', 'messaging.destination.name': topic },
  );
  const log = childWithTrace(
    logger,
    { reqId: event?.correlationId, eventId: event?.id, eventType: topic },
    trace.traceId,
  );
  const handler = handlers[topic];
  if (!event || !handler) {
    const reason = !event ? 'envelope not readable (not JSON, or no id, type or data)' : `no handler for ${topic}`;
    log.error(
      { partition, offset: message.offset, reason },
      `consume ${topic}: event sent to the dead-letter topic: ${reason}`,
    );
    span?.end();
    return deadLetters.send(topic, message, reason, log, ctl);
  }

  let inherited: string[] = [];
  for (let waited = 0; ; waited++) {
    const claim = await claims.claim(event.id, event.type);
    if (claim.state === 'done') {
      log.info('event already processed; skipped');
      span?.end();
      return 'skipped';
    }
    if (claim.state === 'claimed') {
      inherited = claim.effects;
      break;
    }
    if (waited === 0) log.info('event is being handled by another consumer; waiting for it');
    if (!(await ctl.pause(Math.min(1000, claims.leaseMs / 3)))) {
      span?.end();
      return 'abandoned';
    }
  }
  // What an earlier holder of the claim did already (it died, failed, or was dead-lettered).
  const effects = new ClaimEffects(claims, { [event.id]: inherited });

  // Keep the claim and the group membership alive however long the handler takes.
  const stopRenewing = claims.keepAlive(() => Promise.all([claims.renew(event.id), ctl.heartbeat()]));
  let outcome: Outcome = 'abandoned';
  try {
    const result = await withRetries(
      async () => {
        await runInTrace(trace, () => handler(event, log, effects));
        await claims.finish(event.id);
      },
      policy,
      ctl,
      log,
      topic,
    );
    if (result.outcome === 'failed') {
      log.error(
        { err: result.error, attempts: result.attempts },
        `event failed every attempt; sending it to the dead-letter topic: ${namedError(result.error)}`,
      );
      outcome = await deadLetters.send(topic, message, errorText(result.error), log, ctl);
    } else {
      outcome = result.outcome;
    }
    return outcome;
  } finally {
    stopRenewing();
    span?.setAttribute('outcome', outcome);
    if (span) endSpan(span, outcome === 'dead-lettered' ? 'dead-lettered' : undefined);
    // Handled: the claim says done. Otherwise free it: an operator's replay (dead-lettered) or
    // the next consumer (abandoned) handles the event again, skipping the effects recorded.
    if (outcome !== 'handled') await claims.release(event.id, effects.any(event.id));
  }
}

/**
 * Several messages of a topic with a BatchingEventHandler: the events are claimed in one write
 * and handled in one call. What that leaves (unreadable messages, events another consumer
 * claimed or handled before, and every event of a call that failed) goes one at a time through
 * `consume`, afterwards, in offset order: retries, waits and dead-lettering stay per event.
 */
async function consumeTogether(
  parts: ConsumerParts,
  topic: string,
  partition: number,
  messages: KafkaMessage[],
  handler: BatchingEventHandler,
  ctl: Control,
): Promise<Outcome> {
  const { claims, logger } = parts;
  const { readable, unreadable } = readEnvelopes(messages);
  const together = await claimTogether(
    claims,
    readable.map((r) => r.event),
  );
  // The first delivery of each event claimed here; a second one in the same fetch goes one at
  // a time afterwards, and finds the event done.
  const first = new Map<string, (typeof readable)[number]>();
  for (const r of readable) if (together.eventIds.has(r.event.id) && !first.has(r.event.id)) first.set(r.event.id, r);
  const mine = [...first.values()];
  const taken = new Set(mine);
  const oneByOne = [...unreadable, ...readable.filter((r) => !taken.has(r)).map((r) => r.message)];
  const log = logger.child({ eventType: topic });
  if (
    mine.length > 0 &&
    !(await handleTogether(
      claims,
      together,
      mine.map((r) => r.event),
      handler,
      log,
    ))
  ) {
    oneByOne.push(...mine.map((r) => r.message));
  }
  for (const message of byOffset(oneByOne)) {
    if (!ctl.active()) return 'abandoned';
    if ((await consume(parts, topic, partition, message, ctl)) === 'abandoned') return 'abandoned';
  }
  return 'handled';
}

/**
 * One fetched batch of a partition: its messages in order, a batching handler's several at a
 * time, each offset committed once its messages are finished; stops at the first it must let go.
 */
async function consumeBatch(parts: ConsumerParts, payload: EachBatchPayload): Promise<void> {
  const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale } = payload;
  // Heartbeats however long a handler, a retry or a claim wait takes, so the short session
  // (group-timing.ts) never drops a live member. kafkajs sends at most one per interval, so
  // the heartbeat that learns of a rebalance may be this one: its error ends the batch as
  // the awaited heartbeat's below would (kafkajs then rejoins the group).
  let heartbeatError: unknown;
  const beating = setInterval(() => {
    heartbeat().catch((err: unknown) => {
      heartbeatError ??= err;
    });
  }, GROUP_TIMING.heartbeatInterval);
  const ctl = new Control(heartbeat, () => isRunning() && !isStale() && heartbeatError === undefined);
  const handler = parts.handlers[batch.topic];
  const step = messagesPerCall(handler);
  try {
    for (let i = 0; i < batch.messages.length; i += step) {
      if (!ctl.active()) break;
      const messages = batch.messages.slice(i, i + step);
      const startedAt = performance.now();
      const outcome =
        messages.length > 1 && isBatching(handler)
          ? await consumeTogether(parts, batch.topic, batch.partition, messages, handler, ctl)
          : await consume(parts, batch.topic, batch.partition, messages[0] as KafkaMessage, ctl);
      countConsumed(batch.topic, outcome, messages.length, startedAt);
      // Abandoned: leave these and every later offset uncommitted; they are delivered again.
      if (outcome === 'abandoned') break;
      resolveOffset((messages.at(-1) as KafkaMessage).offset);
      await commitOffsetsIfNecessary();
      await heartbeat();
    }
  } finally {
    clearInterval(beating);
  }
  if (heartbeatError !== undefined) throw heartbeatError;
}
