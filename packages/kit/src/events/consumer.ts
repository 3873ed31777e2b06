import type { Consumer, Kafka } from 'kafkajs';
import type { Collection } from 'mongodb';
import type { Logger } from '../logger.js';
import { type EventEnvelope, parseEnvelope } from './envelope.js';
import type { EventPublisher } from './publisher.js';

export type EventHandler = (event: EventEnvelope, log: Logger) => Promise<void>;

export interface ConsumerOptions {
  kafka: Kafka;
  groupId: string;
  handlers: Record<string, EventHandler>;
  /** Where processed event ids are remembered (unique by _id), so a redelivery does nothing twice. */
  processed: Collection<ProcessedEvent>;
  publisher: EventPublisher;
  logger: Logger;
  maxAttempts?: number;
  retryBaseMs?: number;
  /** A claim older than this is taken over: its consumer died mid-way. */
  staleClaimMs?: number;
}

export interface ProcessedEvent {
  _id: string;
  type: string;
  status: 'processing' | 'done';
  claimedAt: Date;
  doneAt?: Date;
}

export const deadLetterTopic = (groupId: string) => `${groupId}.dead-letter`;

/**
 * Runs handlers for the subscribed event types with bounded retries. An event that keeps
 * failing goes to the group's dead-letter topic with the error, is logged, and its claim is
 * released so an operator can replay it.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Consumer> {
  const { kafka, groupId, handlers, processed, publisher, logger } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const staleClaimMs = options.staleClaimMs ?? 5 * 60_000;
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, rebalanceTimeout: 10000, heartbeatInterval: 1000 });
  await consumer.connect();
  await consumer.subscribe({ topics: Object.keys(handlers), fromBeginning: true });

  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
      const event = parseEnvelope(message.value);
      const log = logger.child({ reqId: event?.correlationId, eventId: event?.id, eventType: topic });
      const handler = handlers[topic];
      if (!event || !handler) {
        log.error({ partition, offset: message.offset }, 'unreadable event sent to dead-letter topic');
        await publisher.sendRaw(deadLetterTopic(groupId), [
          {
            key: message.key,
            value: message.value,
            headers: { 'original-topic': topic, error: 'unreadable envelope' },
          },
        ]);
        return;
      }
      const claimId = `${groupId}:${event.id}`;
      if (!(await claim(processed, claimId, event.type, staleClaimMs))) {
        log.info('event already processed; skipped');
        return;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          await handler(event, log);
          await processed.updateOne({ _id: claimId }, { $set: { status: 'done', doneAt: new Date() } });
          return;
        } catch (err) {
          if (attempt >= maxAttempts) {
            log.error({ err, attempts: attempt }, 'event failed every attempt; sent to dead-letter topic');
            await publisher.sendRaw(deadLetterTopic(groupId), [
              {
                key: message.key,
                value: message.value,
                headers: { 'original-topic': topic, error: String((err as Error).message ?? err) },
              },
            ]);
            await processed.deleteOne({ _id: claimId });
            return;
          }
          log.warn({ err, attempt }, 'event handler failed; retrying');
          await sleep(retryBaseMs * 2 ** (attempt - 1));
        }
      }
    },
  });
  return consumer;
}

async function claim(
  processed: Collection<ProcessedEvent>,
  id: string,
  type: string,
  staleMs: number,
): Promise<boolean> {
  const now = new Date();
  try {
    await processed.insertOne({ _id: id, type, status: 'processing', claimedAt: now });
    return true;
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
  }
  const existing = await processed.findOne({ _id: id });
  if (!existing || existing.status === 'done') return false;
  if (now.getTime() - existing.claimedAt.getTime() < staleMs) return false;
  // findOneAndUpdate: a conditional updateOne would scan processed_events on the embedded server.
  const taken = await processed.findOneAndUpdate(
    { _id: id, claimedAt: existing.claimedAt },
    { $set: { claimedAt: now } },
    { projection: { _id: 1 } },
  );
  return taken !== null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
