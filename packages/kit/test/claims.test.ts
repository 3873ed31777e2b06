import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claimTogether } from '../src/events/batches.js';
import {
  CLAIM_INDEXES,
  ClaimEffects,
  Claims,
  type ProcessedEvent,
  type ProcessedLedger,
} from '../src/events/claims.js';
import { type EventEnvelope, createEvent, createIndexes } from '../src/index.js';
import { useKitInfrastructure } from './kit-infrastructure.js';

// The claims and the batch claims on their own, against the real MongoDB: no Kafka, no consumer.
const kit = useKitInfrastructure('kit-claims-test');
const processed = () => kit().mongo.db!.collection<ProcessedEvent>('processed_events');
const ledger = () => kit().mongo.db!.collection<ProcessedLedger>('processed_events_ledger');

/** Two consumer instances of one fresh group. */
function group(leaseMs = 60_000) {
  const groupId = `claims-${randomUUID().slice(0, 8)}`;
  return {
    groupId,
    a: new Claims(processed(), ledger(), groupId, leaseMs),
    b: new Claims(processed(), ledger(), groupId, leaseMs),
  };
}

const events = (n: number) =>
  Array.from({ length: n }, () => createEvent('claims-test', {}, { source: 'test', key: 'k' }) as EventEnvelope);

describe('a claim', () => {
  it('is taken once: the other instance waits while it is held, and skips it once done', async () => {
    const { a, b, groupId } = group();
    await createIndexes(kit().mongo.db!, CLAIM_INDEXES);
    const [event] = events(1) as [EventEnvelope];
    expect((await a.claim(event.id, event.type)).state).toBe('claimed');
    expect((await b.claim(event.id, event.type)).state).toBe('held');
    await a.finish(event.id);
    expect((await b.claim(event.id, event.type)).state).toBe('done');
    expect((await a.claim(event.id, event.type)).state).toBe('done');
    // Remembered under the hour it was claimed, for pruning.
    const hour = await ledger().findOne({ _id: `${groupId}:${new Date().toISOString().slice(0, 13)}` });
    expect(hour?.ids).toContain(a.idOf(event.id));
  });

  it('released, is free for the next instance; a done claim is not released', async () => {
    const { a, b } = group();
    const [first, second] = events(2) as [EventEnvelope, EventEnvelope];
    expect((await a.claim(first.id, first.type)).state).toBe('claimed');
    await a.release(first.id, false);
    expect(await processed().findOne({ _id: a.idOf(first.id) })).toBeNull();
    expect((await b.claim(first.id, first.type)).state).toBe('claimed');

    expect((await a.claim(second.id, second.type)).state).toBe('claimed');
    await a.finish(second.id);
    await a.release(second.id, false);
    expect(await processed().findOne({ _id: a.idOf(second.id) })).toMatchObject({ status: 'done' });
  });

  it('not renewed for a lease is taken over; renewed, it stays its holder’s', async () => {
    const { a, b } = group(2_000);
    const [renewed, left] = events(2) as [EventEnvelope, EventEnvelope];
    const longAgo = new Date(Date.now() - 10_000);
    for (const e of [renewed, left]) {
      await processed().insertOne({
        _id: a.idOf(e.id),
        type: e.type,
        status: 'processing',
        claimedAt: longAgo,
        owner: a.owner,
      });
    }
    await a.renew(renewed.id);
    expect((await b.claim(renewed.id, renewed.type)).state).toBe('held');
    expect((await b.claim(left.id, left.type)).state).toBe('claimed');
    expect(await processed().findOne({ _id: a.idOf(left.id) })).toMatchObject({ owner: b.owner });
    // The old holder's writes no longer touch it.
    await a.finish(left.id);
    expect(await processed().findOne({ _id: a.idOf(left.id) })).toMatchObject({ status: 'processing' });
  });
});

describe('the effects recorded under a claim', () => {
  it('outlive its release, and are handed to whoever claims the event next', async () => {
    const { a, b } = group();
    const [event, plain] = events(2) as [EventEnvelope, EventEnvelope];
    expect((await a.claim(event.id, event.type)).state).toBe('claimed');
    const effects = new ClaimEffects(a);
    await effects.record('staff-email', [event.id]);
    expect(effects.done('staff-email', event.id)).toBe(true);
    expect(effects.done('receipt', event.id)).toBe(false);
    await a.release(event.id, effects.any(event.id));
    // Free at once (no lease to wait out), with the effect still there.
    expect(await b.claim(event.id, event.type)).toEqual({ state: 'claimed', effects: ['staff-email'] });
    expect(new ClaimEffects(b, { [event.id]: ['staff-email'] }).done('staff-email', event.id)).toBe(true);

    // Without effects, a released claim is gone.
    expect((await a.claim(plain.id, plain.type)).state).toBe('claimed');
    await a.release(plain.id, false);
    expect(await processed().findOne({ _id: a.idOf(plain.id) })).toBeNull();
  });

  it('of a call that failed stay on the claims that had them; the others are released', async () => {
    const { a, b } = group();
    const burst = events(3);
    const [sent, ...unsent] = burst as [EventEnvelope, ...EventEnvelope[]];
    const together = await claimTogether(a, burst);
    const effects = new ClaimEffects(a);
    await effects.record('digest', [sent.id]);
    await together.release(effects);
    expect(await b.claim(sent.id, sent.type)).toEqual({ state: 'claimed', effects: ['digest'] });
    for (const e of unsent) expect(await processed().findOne({ _id: a.idOf(e.id) })).toBeNull();
  });
});

describe('claims taken together', () => {
  it('name only the events not claimed before, and hold their state in one ledger chunk', async () => {
    const { a, b } = group();
    const burst = events(5);
    const [before] = burst as [EventEnvelope];
    expect((await b.claim(before.id, before.type)).state).toBe('claimed');

    const together = await claimTogether(a, burst);
    expect([...together.eventIds].sort()).toEqual(
      burst
        .slice(1)
        .map((e) => e.id)
        .sort(),
    );
    const chunk = await ledger().findOne({ _id: together.chunk as string });
    expect(chunk).toMatchObject({ status: 'processing', ids: burst.map((e) => a.idOf(e.id)) });

    // Finished: one write to the chunk, and the claims read as done through it.
    await together.finish();
    expect(await ledger().findOne({ _id: together.chunk as string })).toMatchObject({ status: 'done' });
    for (const e of burst.slice(1)) expect((await b.claim(e.id, e.type)).state).toBe('done');
  });

  it('released, leave no claim behind, so each event can be claimed alone', async () => {
    const { a, b } = group();
    const burst = events(3);
    const together = await claimTogether(a, burst);
    expect(together.eventIds.size).toBe(3);
    await together.release();
    expect(await processed().countDocuments({ _id: { $in: burst.map((e) => a.idOf(e.id)) } })).toBe(0);
    for (const e of burst) expect((await b.claim(e.id, e.type)).state).toBe('claimed');
  });

  it('left by a dead instance, are taken over one at a time once their chunk is not renewed', async () => {
    const { a, b } = group(2_000);
    const [event] = events(1) as [EventEnvelope];
    const together = await claimTogether(a, [event]);
    await ledger().updateOne({ _id: together.chunk as string }, { $set: { claimedAt: new Date(Date.now() - 10_000) } });
    await processed().updateOne({ _id: a.idOf(event.id) }, { $set: { claimedAt: new Date(Date.now() - 10_000) } });
    expect((await b.claim(event.id, event.type)).state).toBe('claimed');
    const claim = await processed().findOne({ _id: a.idOf(event.id) });
    expect(claim).toMatchObject({ owner: b.owner });
    expect(claim?.batch).toBeUndefined();
  });
});
