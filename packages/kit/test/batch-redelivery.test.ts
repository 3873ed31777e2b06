import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import {
  type EventConsumer,
  type OutboxEntry,
  type ProcessedEvent,
  type ProcessedLedger,
  batchHandler,
  createEvent,
  deadLetterTopic,
  ensureTopics,
  startConsumer,
} from '../src/index.js';
import { useKitInfrastructure } from './kit-infrastructure.js';

// The outbox publishes at least once: a relay whose removal of a published entry failed (MongoDB
// slow or away) publishes the entry again, and a consumer that is behind fetches both copies at
// once. A batching handler's consumer must still handle that event, once. The kit's consumer
// against the real Kafka and MongoDB; the claims read through a client of this test's own.
const kit = useKitInfrastructure('kit-batch-redelivery-test');
let mongo: MongoClient;
beforeAll(async () => {
  mongo = await new MongoClient(testEnv().mongoUrl).connect();
});
afterAll(async () => {
  await mongo?.close();
});

describe('a consumer whose handler takes events together', () => {
  it('handles an event delivered twice in one fetch, beside another, once', async () => {
    const topic = `batch-twice-${randomUUID().slice(0, 8)}`;
    const groupId = `batch-twice-group-${randomUUID().slice(0, 8)}`;
    await ensureTopics(kit().kafka, [topic, deadLetterTopic(groupId)], 1);
    const [twice, other, sentinel] = [1, 2, 3].map(() => createEvent(topic, {}, { source: 'test', key: 'k' })) as [
      OutboxEntry,
      OutboxEntry,
      OutboxEntry,
    ];
    // Published before the consumer starts: its first fetch holds all three.
    await kit().publisher.publish([twice, other, twice]);

    const calls: string[][] = [];
    let consumer: EventConsumer | undefined;
    try {
      consumer = await startConsumer({
        kafka: kit().kafka,
        groupId,
        processed: mongo.db('kit_test').collection<ProcessedEvent>('processed_events'),
        ledger: mongo.db('kit_test').collection<ProcessedLedger>('processed_events_ledger'),
        publisher: kit().publisher,
        logger: kit().logger,
        handlers: { [topic]: batchHandler(async (batch) => void calls.push(batch.map((e) => e.id))) },
      });
      await eventually(async () => calls.flat().includes(other.id), 60_000, 'the other event');
      // Handled only after everything before it on the partition was dealt with.
      await kit().publisher.publish([sentinel]);
      await eventually(async () => calls.flat().includes(sentinel.id), 60_000, 'the sentinel');
    } finally {
      await consumer?.disconnect();
    }
    // Each once: not taken for done by the call that claimed it without handling it, and not
    // twice in one call.
    expect(calls.flat().sort()).toEqual([twice.id, other.id, sentinel.id].sort());
  });
});
