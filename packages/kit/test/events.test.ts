import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { EventTap } from '../../../test/support/events.js';
import {
  type EventConsumer,
  type EventPublisher,
  OUTBOX_MARKERS,
  OutboxRelay,
  createEvent,
  createLogger,
  deadLetterTopic,
  ensureTopics,
  markingRecorder,
  startConsumer,
} from '../src/index.js';
import { capturingLogger } from './capturing-logger.js';
import { freshTopic, kitConsumer, useKitInfrastructure } from './kit-infrastructure.js';

const kit = useKitInfrastructure('kit-events-test');

describe('the outbox relay', () => {
  it('an event whose topic does not exist does not hold back the events of other documents, and is reported as stuck', async () => {
    const infra = kit();
    const topic = `relay-ok-${randomUUID().slice(0, 8)}`;
    await ensureTopics(infra.kafka, [topic], 1);
    const db = infra.mongo.db!;
    const collection = `relay_test_${randomUUID().slice(0, 8)}`;
    // Written the way a process without a relay writes (create-admin): marked, left for the sweep,
    // the document with the unpublishable event first.
    const recorder = markingRecorder(db);
    const stuck = createEvent(`no-such-topic-${randomUUID().slice(0, 8)}`, { n: 0 }, { source: 'test', key: 'a' });
    await recorder.record(collection, 'a', () =>
      db.collection(collection).insertOne({ _id: 'a' as never, outbox: [stuck] }),
    );
    const fine = [1, 2].map((n) => createEvent(topic, { n }, { source: 'test', key: `b${n}` }));
    for (const [i, event] of fine.entries()) {
      await recorder.record(collection, `b${i}`, () =>
        db.collection(collection).insertOne({ _id: `b${i}` as never, outbox: [event] }),
      );
    }

    const tap = await new EventTap([topic]).start();
    const { lines, logger } = capturingLogger('capture', 'debug');
    const relay = new OutboxRelay(db, [collection], infra.publisher, logger, {
      sweepIntervalMs: 200,
      maxBackoffMs: 500,
      stuckAfterAttempts: 2,
    });
    relay.start();
    try {
      for (const event of fine) await tap.waitFor(topic, (d: { n: number }) => d.n === (event.data as { n: number }).n);
      await eventually(
        async () => lines.find((l) => l.msg.startsWith('outbox document stuck') && l.docId === 'a'),
        60_000,
        'the stuck report',
      );
      const report = lines.find((l) => l.msg.startsWith('outbox document stuck'));
      expect(report?.level).toBe(50);
      // The stuck document keeps its event and its marker (nothing lost); the others are done.
      expect((await db.collection(collection).findOne({ _id: 'a' as never }))?.outbox).toHaveLength(1);
      expect((await db.collection(collection).findOne({ _id: 'b0' as never }))?.outbox).toEqual([]);
      const marker = await db.collection(OUTBOX_MARKERS).findOne({ _id: `${collection}:a` as never });
      expect(marker?.attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await relay.stop();
      await tap.stop();
    }
  });
});

describe('the outbox relay with one marker per batch', () => {
  /** A publisher that fails while `down` and records what it sent. */
  function fakePublisher() {
    const sent: string[] = [];
    const state = { down: false };
    const publisher = {
      async publish(events: { id: string }[]) {
        if (state.down) throw new Error('broker unavailable (injected)');
        sent.push(...events.map((e) => e.id));
      },
    } as unknown as EventPublisher;
    return { sent, state, publisher };
  }

  it('publishes a batch the writer never published (a crash), only the events of documents that batch stored', async () => {
    const db = kit().mongo.db!;
    const suffix = randomUUID().slice(0, 8);
    const batches = { collection: `batched_${suffix}`, markers: `batch_markers_${suffix}` };
    const { sent, publisher } = fakePublisher();
    const relay = new OutboxRelay(db, [], publisher, createLogger({ name: 't', level: 'silent', format: 'json' }), {
      graceMs: 0,
      batches,
    });
    const ours = createEvent('t', { n: 1 }, { source: 'test', key: 'a' });
    const theirs = createEvent('t', { n: 2 }, { source: 'test', key: 'b' });
    await relay.markBatch('batch-1', ['a', 'b']);
    // 'b' was already stored by another batch: its event is that batch's business.
    await db.collection(batches.collection).insertMany([
      { _id: 'a' as never, event: JSON.stringify(ours), batch: 'batch-1' },
      { _id: 'b' as never, event: JSON.stringify(theirs), batch: 'batch-0' },
    ]);
    expect(await relay.drain()).toBe(1);
    expect(sent).toEqual([ours.id]);
    expect(await db.collection(batches.markers).countDocuments()).toBe(0);
  });

  it('a failed immediate publish re-arms the marker, even one a sweep already removed, and the sweep publishes it', async () => {
    const db = kit().mongo.db!;
    const suffix = randomUUID().slice(0, 8);
    const batches = { collection: `batched_${suffix}`, markers: `batch_markers_${suffix}` };
    const { sent, state, publisher } = fakePublisher();
    const relay = new OutboxRelay(db, [], publisher, createLogger({ name: 't', level: 'silent', format: 'json' }), {
      graceMs: 0,
      sweepIntervalMs: 60_000,
      batches,
    });
    relay.start();
    try {
      const event = createEvent('t', { n: 1 }, { source: 'test', key: 'a' });
      await relay.markBatch('batch-1', ['a']);
      await db.collection(batches.markers).deleteOne({ _id: 'batch-1' as never });
      await db
        .collection(batches.collection)
        .insertOne({ _id: 'a' as never, event: JSON.stringify(event), batch: 'batch-1' });
      state.down = true;
      relay.publishBatch('batch-1', ['a'], [event]);
      await relay.settled();
      expect(sent).toEqual([]);
      const marker = await db.collection(batches.markers).findOne({ _id: 'batch-1' as never });
      expect(marker?.ids).toEqual(['a']);
      state.down = false;
      await db.collection(batches.markers).updateOne({ _id: 'batch-1' as never }, { $set: { retryAt: new Date(0) } });
      expect(await relay.drain()).toBe(1);
      expect(sent).toEqual([event.id]);
      expect(await db.collection(batches.markers).countDocuments()).toBe(0);
    } finally {
      await relay.stop();
    }
  });
});

describe('the consumer', () => {
  it('when sending a failed event to the dead-letter topic fails, it keeps the event and retries: nothing is lost', async () => {
    const infra = kit();
    const { topic, groupId } = await freshTopic(infra, 'dlq-test');
    let deadLetterSends = 0;
    const flakyPublisher: Pick<EventPublisher, 'sendRaw'> = {
      async sendRaw(target, messages) {
        deadLetterSends += 1;
        if (deadLetterSends <= 3) throw new Error('broker unavailable (injected)');
        return infra.publisher.sendRaw(target, messages);
      },
    };
    const poison = createEvent(topic, { poison: true }, { source: 'test', key: 'k' });
    const after = createEvent(topic, { poison: false }, { source: 'test', key: 'k' });
    await infra.publisher.publish([poison, after]);

    const handled: string[] = [];
    const deadLetters = await new EventTap([deadLetterTopic(groupId)]).start();
    let consumer: EventConsumer | undefined;
    try {
      consumer = await startConsumer({
        ...kitConsumer(infra),
        groupId,
        publisher: flakyPublisher,
        maxAttempts: 2,
        retryBaseMs: 50,
        handlers: {
          [topic]: async (event) => {
            if ((event.data as { poison: boolean }).poison) throw new Error('cannot handle this one');
            handled.push(event.id);
          },
        },
      });
      const dead = await eventually(
        async () => deadLetters.seen.find((d) => d.envelope.id === poison.id),
        60_000,
        'the dead letter',
      );
      expect(dead.headers.error).toBe('cannot handle this one');
      expect(deadLetterSends).toBe(4);
      await eventually(async () => handled.includes(after.id), 30_000, 'the next event to be handled');
      // Released so an operator can replay it.
      expect(
        await infra.mongo.db!.collection('processed_events').findOne({ _id: `${groupId}:${poison.id}` as never }),
      ).toBeNull();
    } finally {
      await consumer?.disconnect();
      await deadLetters.stop();
    }
  });
});
