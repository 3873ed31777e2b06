import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { injectingFault, pauseServer } from '../../../test/support/faults.js';
import { CircuitOpenError, type DependencyBreaker, connectMongo, guardMongo } from '../src/index.js';

// The MongoDB side of the breaker on the real driver and server: server selection, the driver
// internal it wraps, refuses calls while MongoDB is known to be down, and the probe lets them
// through again once it answers. Pausing needs the local server processes.
const local = testEnv().mode === 'local';

describe.runIf(local)('the MongoDB breaker', () => {
  let conn: Awaited<ReturnType<typeof connectMongo>>;
  let breaker: DependencyBreaker;
  beforeAll(async () => {
    conn = await connectMongo(testEnv().mongoUrl, 'kit_breaker_test', { timeoutMs: 300 });
    breaker = guardMongo(conn, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    breaker?.stop();
    await conn?.close();
  });

  it('fails operations at once while MongoDB hangs, and lets them through once it answers', async () => {
    const notes = conn.collection('notes');
    await notes.insertOne({ text: 'before' });
    await injectingFault('mongo paused (breaker test)', async () => {
      const resume = pauseServer('mongo');
      try {
        // Operations time out (300 ms here) until three of them open the breaker.
        await eventually(
          async () => {
            await notes.findOne({}).catch(() => {});
            return breaker.isOpen;
          },
          10_000,
          'the breaker to open',
        );
        await expect(notes.findOne({})).rejects.toBeInstanceOf(CircuitOpenError);
      } finally {
        resume();
      }
      await eventually(async () => !breaker.isOpen, 10_000, 'the breaker to close once MongoDB answers');
      expect(await notes.findOne({ text: 'before' })).not.toBeNull();
    });
  });
});
