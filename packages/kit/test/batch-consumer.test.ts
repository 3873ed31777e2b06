import { describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { EventTap } from '../../../test/support/events.js';
import {
  type EventConsumer,
  type OutboxEntry,
  type ProcessedEvent,
  type ProcessedLedger,
  batchHandler,
  createEvent,
  deadLetterTopic,
  pruneProcessed,
  startConsumer,
} from '../src/index.js';
import { freshTopic, kitConsumer, useKitInfrastructure } from './kit-infrastructure.js';

const kit = useKitInfrastructure('kit-batch-test');

const processed = () => kit().mongo.db!.collection<ProcessedEvent>('processed_events');
const ledger = () => kit().mongo.db!.collection<ProcessedLedger>('processed_events_ledger');

/** A consumer of `topic` whose handler takes its events together, with the kit's real stores. */
function consumeTogether(
  topic: string,
  groupId: string,
  handle: Parameters<typeof batchHandler>[0],
  options: Pick<Parameters<typeof startConsumer>[0], 'maxAttempts' | 'retryBaseMs' | 'claimLeaseMs'> = {},
) {
  return startConsumer({
    ...kitConsumer(kit()),
    groupId,
    ledger: ledger(),
    handlers: { [topic]: batchHandler(handle) },
    ...options,
  });
}

const events = (topic: string, n: number, data: (i: number) => object = (i) => ({ i })) =>
  Array.from({ length: n }, (_, i) => createEvent(topic, data(i), { source: 'test', key: `k${i % 7}` }));

describe('a consumer whose handler takes events together', () => {
  // The outbox publishes at least once: a relay whose removal of a published entry failed (MongoDB
  // slow or away) publishes the entry again, and a consumer that is behind fetches both copies at
  // once. The consumer must still handle that event, once.
  it('handles an event delivered twice in one fetch, beside another, once', async () => {
    const { topic, groupId } = await freshTopic(kit(), 'batch-twice');
    const [twice, other, sentinel] = events(topic, 3) as [
      OutboxEntry<object>,
      OutboxEntry<object>,
      OutboxEntry<object>,
    ];
    // Published before the consumer starts: its first fetch holds all three.
    await kit().publisher.publish([twice, other, twice]);

    const calls: string[][] = [];
    let consumer: EventConsumer | undefined;
    try {
      consumer = await consumeTogether(topic, groupId, async (batch) => void calls.push(batch.map((e) => e.id)));
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

  it('handles a burst in few calls, each event once, skips those handled before or delivered again, and prunes their claims', async () => {
    const { topic, groupId } = await freshTopic(kit(), 'batch');
    const burst = events(topic, 300);
    // Five were handled before (a redelivery): their claims say done.
    const before = burst.slice(40, 45);
    await processed().insertMany(
      before.map((e) => ({ _id: `${groupId}:${e.id}`, type: topic, status: 'done' as const, claimedAt: new Date() })),
    );
    await kit().publisher.publish(burst);

    const calls: number[] = [];
    const handled: string[] = [];
    const [fresh, sentinel] = events(topic, 2) as [OutboxEntry<object>, OutboxEntry<object>];
    let consumer: EventConsumer | undefined;
    try {
      consumer = await consumeTogether(topic, groupId, async (batch) => {
        calls.push(batch.length);
        handled.push(...batch.map((e) => e.id));
      });
      await eventually(async () => handled.length >= 295, 60_000, 'the burst to be handled');
      expect(calls.length).toBeLessThanOrEqual(10);
      expect(Math.max(...calls)).toBeGreaterThan(1);
      // Sixty of them delivered again (a producer's retry, a replay), then a new one. Fetched
      // together, the new one may be handled before the sixty are met (they are left for the
      // one-at-a-time path), so a sentinel published once it was handled comes in a later fetch:
      // when the sentinel is handled, the sixty were dealt with.
      await kit().publisher.publish([...burst.slice(0, 60), fresh]);
      await eventually(async () => handled.includes(fresh.id), 60_000, 'the new event');
      await kit().publisher.publish([sentinel]);
      await eventually(async () => handled.includes(sentinel.id), 60_000, 'the sentinel');
    } finally {
      await consumer?.disconnect();
    }
    expect(new Set(handled).size).toBe(handled.length);
    expect(handled.sort()).toEqual(
      [...burst, fresh, sentinel]
        .filter((e) => !before.includes(e))
        .map((e) => e.id)
        .sort(),
    );

    // Pruned as if a retention period had passed: every claim goes, chunks and all (the five
    // handled before too: the chunk lists every id its call tried to claim).
    const claims = [...burst, fresh, sentinel].map((e) => `${groupId}:${e.id}`);
    const removed = await pruneProcessed(processed(), ledger(), groupId, Date.now() + 2 * 60 * 60 * 1000);
    expect(removed).toBe(302);
    expect(await processed().countDocuments({ _id: { $in: claims } })).toBe(0);
    const hour = `${groupId}:${new Date().toISOString().slice(0, 13)}`;
    const chunks = Array.from({ length: 12 }, (_, n) => `${hour}#${n + 1}`);
    expect(await ledger().countDocuments({ _id: { $in: [hour, ...chunks] } })).toBe(0);
  });

  it('goes by the chunk of events claimed together: done is skipped, one left by a dead consumer is taken over', async () => {
    const { topic, groupId } = await freshTopic(kit(), 'batch-chunk');
    const [done, abandoned, sentinel] = events(topic, 3) as [
      OutboxEntry<object>,
      OutboxEntry<object>,
      OutboxEntry<object>,
    ];
    const longAgo = new Date(Date.now() - 60_000);
    // Two calls of another consumer: one finished, one whose process died mid-handler.
    const chunkOf = (e: OutboxEntry<object>) => `${groupId}:1999-01-01T00#${e === done ? 1 : 2}`;
    await ledger().insertMany([
      { _id: chunkOf(done), ids: [`${groupId}:${done.id}`], status: 'done', claimedAt: longAgo },
      {
        _id: chunkOf(abandoned),
        ids: [`${groupId}:${abandoned.id}`],
        status: 'processing',
        claimedAt: longAgo,
      },
    ]);
    await processed().insertMany(
      [done, abandoned].map((e) => ({
        _id: `${groupId}:${e.id}`,
        type: topic,
        status: 'processing' as const,
        claimedAt: longAgo,
        owner: 'gone',
        batch: chunkOf(e),
      })),
    );
    await kit().publisher.publish([done, abandoned]);

    const handled: string[] = [];
    let consumer: EventConsumer | undefined;
    try {
      consumer = await consumeTogether(topic, groupId, async (batch) => void handled.push(...batch.map((e) => e.id)), {
        claimLeaseMs: 3000,
      });
      await eventually(async () => handled.includes(abandoned.id), 60_000, 'the abandoned event to be taken over');
      // A later event, handled only after everything before it on the partition was dealt with.
      await kit().publisher.publish([sentinel]);
      await eventually(async () => handled.includes(sentinel.id), 60_000, 'the sentinel');
    } finally {
      await consumer?.disconnect();
    }
    // The done one was skipped; the abandoned one was taken over and handled once.
    expect(handled).toEqual([abandoned.id, sentinel.id]);
    const claim = await processed().findOne({ _id: `${groupId}:${abandoned.id}` });
    expect(claim).toMatchObject({ status: 'done' });
    expect(claim?.batch).toBeUndefined();
  });

  it('when a call fails, handles its events one at a time: the bad one is dead-lettered, every other once', async () => {
    const { topic, groupId } = await freshTopic(kit(), 'batch-poison');
    const burst = events(topic, 20, (i) => ({ poison: i === 7 }));
    const poison = burst[7] as OutboxEntry<object>;
    await kit().publisher.publish(burst);

    const calls: number[] = [];
    const handled: string[] = [];
    const deadLetters = await new EventTap([deadLetterTopic(groupId)]).start();
    let consumer: EventConsumer | undefined;
    try {
      consumer = await consumeTogether(
        topic,
        groupId,
        async (batch) => {
          calls.push(batch.length);
          if (batch.some((e) => (e.data as { poison: boolean }).poison)) throw new Error('cannot handle this one');
          handled.push(...batch.map((e) => e.id));
        },
        { maxAttempts: 2, retryBaseMs: 50 },
      );
      await eventually(
        async () => deadLetters.seen.some((d) => d.envelope.id === poison.id),
        60_000,
        'the poison event to be dead-lettered',
      );
      await eventually(async () => handled.length >= 19, 30_000, 'the others to be handled');
    } finally {
      await consumer?.disconnect();
      await deadLetters.stop();
    }
    expect(calls[0]).toBe(20);
    expect(handled.sort()).toEqual(
      burst
        .filter((e) => e !== poison)
        .map((e) => e.id)
        .sort(),
    );
    // Released so an operator can replay it.
    expect(await processed().findOne({ _id: `${groupId}:${poison.id}` })).toBeNull();
  });
});

describe('effects a handler records', () => {
  it('are not repeated when a call fails halfway and its events are handled one at a time', async () => {
    const { topic, groupId } = await freshTopic(kit(), 'batch-effects');
    const burst = events(topic, 12, (i) => ({ failOnce: i === 5 }));
    await kit().publisher.publish(burst);

    // One "email" per event, recorded as it goes; the sixth fails the first time only.
    const emailed: string[] = [];
    let failed = false;
    let consumer: EventConsumer | undefined;
    try {
      consumer = await consumeTogether(topic, groupId, async (batch, _log, effects) => {
        for (const event of batch) {
          if (effects.done('email', event.id)) continue;
          if ((event.data as { failOnce: boolean }).failOnce && !failed) {
            failed = true;
            throw new Error('SMTP away for a moment');
          }
          emailed.push(event.id);
          await effects.record('email', [event.id]);
        }
      });
      await eventually(async () => emailed.length >= 12, 60_000, 'every event emailed');
      const [sentinel] = events(topic, 1) as [OutboxEntry<object>];
      await kit().publisher.publish([sentinel]);
      await eventually(async () => emailed.includes(sentinel.id), 60_000, 'the sentinel');
    } finally {
      await consumer?.disconnect();
    }
    expect(failed).toBe(true);
    expect(emailed.slice(0, 12).sort()).toEqual(burst.map((e) => e.id).sort());
    expect(emailed).toHaveLength(13);
  });
});
