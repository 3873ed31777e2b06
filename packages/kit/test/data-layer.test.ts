import { randomUUID } from 'node:crypto';
import type { Collection, Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { EventTap } from '../../../test/support/events.js';
import { type Infrastructure, OutboxRelay, type ServiceApp, createEvent, createLogger } from '../src/index.js';
import { startNoteService } from './fixture-service.js';

// The promises every feature leans on, checked against the real MongoDB-protocol server of this
// run: one document's updates are atomic, and the outbox relay never undoes a state change.
describe('the database under concurrent writes', () => {
  let infra: Infrastructure;
  let app: ServiceApp;
  let topic: string;
  let race: Collection<Document>;

  beforeAll(async () => {
    ({ infra, app, topic } = await startNoteService('kit-data-layer', {}));
    race = infra.mongo.db!.collection(`race_${randomUUID().slice(0, 8)}`);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('applies 200 concurrent increments of one document, all of them', async () => {
    const id = randomUUID();
    await race.insertOne({ _id: id as never, n: 0 });
    await Promise.all(Array.from({ length: 200 }, () => race.updateOne({ _id: id as never }, { $inc: { n: 1 } })));
    expect((await race.findOne({ _id: id as never }))?.n).toBe(200);
  });

  it('of 10 concurrent conditional claims of one document, exactly one wins', async () => {
    const id = randomUUID();
    await race.insertOne({ _id: id as never, used: false });
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        race.findOneAndUpdate({ _id: id as never, used: false }, { $set: { used: true, by: i } }),
      ),
    );
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
  });

  it('spends a balance of 10 exactly 10 times when 20 spend at once', async () => {
    const id = randomUUID();
    await race.insertOne({ _id: id as never, credits: 10 });
    const spends = await Promise.all(
      Array.from({ length: 20 }, () =>
        race.findOneAndUpdate({ _id: id as never, credits: { $gt: 0 } }, { $inc: { credits: -1 } }),
      ),
    );
    expect(spends.filter((s) => s !== null)).toHaveLength(10);
    expect((await race.findOne({ _id: id as never }))?.credits).toBe(0);
  });

  it('the relay publishing and removing events never undoes a state change written at the same moment', async () => {
    const docs = 20;
    const writesPerDoc = 100;
    const tap = await new EventTap([topic]).start();
    // A relay of its own that sweeps continuously with no grace, so sweeps and immediate
    // publishes race the writes as hard as they can.
    const relay = new OutboxRelay(
      infra.mongo.db!,
      [race.collectionName],
      infra.publisher,
      createLogger({ name: 'race', level: 'silent', format: 'json' }),
      { sweepIntervalMs: 5, graceMs: 0 },
    );
    relay.start();
    const ids = Array.from({ length: docs }, () => randomUUID());
    await race.insertMany(ids.map((id) => ({ _id: id as never, count: 0, last: -1, outbox: [] })));
    const eventIds = new Set<string>();
    try {
      await Promise.all(
        ids.map(async (id) => {
          for (let i = 0; i < writesPerDoc; i++) {
            const event = createEvent(topic, { id, i }, { source: 'race', key: id });
            eventIds.add(event.id);
            await relay.record(race.collectionName, id, () =>
              race.findOneAndUpdate({ _id: id as never }, {
                $inc: { count: 1 },
                $set: { last: i },
                $push: { outbox: event },
              } as Document),
            );
          }
        }),
      );
      await eventually(
        async () => (await race.countDocuments({ 'outbox.0': { $exists: true } })) === 0,
        30_000,
        'every outbox to empty',
      );
      const stored = await race.find({ _id: { $in: ids as never[] } }).toArray();
      for (const doc of stored) {
        expect(doc.count).toBe(writesPerDoc);
        expect(doc.last).toBe(writesPerDoc - 1);
      }
      await eventually(
        async () => {
          const seen = new Set(tap.seen.map((s) => s.envelope.id));
          return [...eventIds].every((e) => seen.has(e));
        },
        60_000,
        `all ${eventIds.size} events on Kafka`,
      );
    } finally {
      await relay.stop();
      await tap.stop();
    }
  });
});
