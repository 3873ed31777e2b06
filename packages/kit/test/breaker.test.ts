import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { injectingFault, pauseServer } from '../../../test/support/faults.js';
import { serversPresent } from '../../../test/support/servers.js';
import { type DependencyBreaker, connectMongo, guardMongo, unavailableDependency } from '../src/index.js';

// The MongoDB side of the breaker on the real driver and server: while MongoDB hangs, each call
// fails within the driver's deadline with an error answered as 503, the driver's monitoring
// events open the breaker (readiness reports MongoDB down), and its probe closes it once MongoDB
// answers. Pausing needs the local server processes.
const local = serversPresent(
  testEnv().mode === 'local',
  'the MongoDB breaker test pauses the local MongoDB process, and this run has containers or explicit URLs',
);

const TIMEOUT_MS = 300;

describe.runIf(local)('the MongoDB breaker', () => {
  let conn: Awaited<ReturnType<typeof connectMongo>>;
  let breaker: DependencyBreaker;
  beforeAll(async () => {
    conn = await connectMongo(testEnv().mongoUrl, 'kit_breaker_test', { timeoutMs: TIMEOUT_MS });
    breaker = guardMongo(conn, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    breaker?.stop();
    await conn?.close();
  });

  it('gives mongoose no buffering, no background index builds and no collection creation of its own', async () => {
    // Each of these, left on, is a failure people see: calls held 10 s while disconnected, a
    // service that dies at start when two creations of one collection meet on the local server.
    expect(conn.config).toMatchObject({ bufferCommands: false, autoIndex: false, autoCreate: false });
    const model = conn.model('Probe', new (await import('mongoose')).Schema({ name: String }));
    await model.syncIndexes();
    const names = (await conn.db?.listCollections().toArray())?.map((c) => c.name) ?? [];
    // syncIndexes with no index to build creates nothing when autoCreate is off.
    expect(names).not.toContain('probes');
  });

  it('fails calls within the deadline while MongoDB hangs, reports it down, and closes once it answers', async () => {
    const notes = conn.collection('notes');
    await notes.insertOne({ text: 'before' });
    await injectingFault('mongo paused (breaker test)', async () => {
      const resume = pauseServer('mongo');
      try {
        await eventually(
          async () => {
            const err = await notes.findOne({}).then(
              () => null,
              (e: unknown) => e,
            );
            expect(unavailableDependency(err)).toBe('mongo');
            return breaker.isOpen;
          },
          10_000,
          'the breaker to open',
        );
        // Each call still ends with the driver's deadline, never a hang.
        const started = Date.now();
        await expect(notes.findOne({})).rejects.toSatisfy((e: unknown) => unavailableDependency(e) === 'mongo');
        expect(Date.now() - started).toBeLessThan(2000);
      } finally {
        resume();
      }
      await eventually(async () => !breaker.isOpen, 10_000, 'the breaker to close once MongoDB answers');
      expect(await notes.findOne({ text: 'before' })).not.toBeNull();
    });
  });
});
