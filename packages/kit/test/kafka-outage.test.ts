import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { EventTap } from '../../../test/support/events.js';
import { injectingFault, stopKafka } from '../../../test/support/faults.js';
import { serversPresent } from '../../../test/support/servers.js';
import type { Infrastructure, ServiceApp } from '../src/index.js';
import { startNoteService } from './fixture-service.js';

// Needs the local Kafka process to stop and restart it; with containers or explicit URLs the
// broker is not ours to stop, and the file fails unless ALLOW_SKIP_WITHOUT_SERVERS=1 says to skip.
const env = testEnv();
const ownKafka = serversPresent(
  env.mode === 'local',
  'the kit Kafka outage test stops the local Kafka process, and this run has containers or explicit URLs',
);

describe.runIf(ownKafka)('when Kafka stops while a service runs', () => {
  let infra: Infrastructure;
  let app: ServiceApp;
  let topic: string;

  beforeAll(async () => {
    ({ infra, app, topic } = await startNoteService('outage-test', {}));
  });

  afterAll(async () => {
    await app?.close();
  });

  it(
    'stays up and ready, reports Kafka down, keeps accepting writes, and publishes them when Kafka returns',
    () =>
      // The whole stack loses Kafka too: its services may rightly log errors meanwhile.
      injectingFault('Kafka stopped', async () => {
        const kafkaStopped = await stopKafka();
        try {
          await whileKafkaIsAway(kafkaStopped.restart);
        } finally {
          await kafkaStopped.restart();
        }
      }),
    180_000,
  );

  async function whileKafkaIsAway(restartKafka: () => Promise<void>) {
    const live = await app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    // Still ready (the outbox keeps events): an orchestrator keeps it in its Service, and the
    // answer names Kafka down.
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'degraded', checks: { kafka: 'down', mongo: 'up' } });

    const written = await app.inject({
      method: 'POST',
      url: '/notes',
      payload: { text: 'written while Kafka was away' },
    });
    expect(written.statusCode).toBe(201);
    const { id, eventId } = written.json();
    // The event waits in the document's outbox rather than being lost.
    const pending = await infra.mongo.db!.collection('notes').findOne({ _id: id });
    expect(pending?.outbox.map((e: { id: string }) => e.id)).toEqual([eventId]);

    await restartKafka();

    const tap = await new EventTap([topic]).start();
    try {
      const seen = await tap.waitFor<{ noteId: string }>(topic, (d) => d.noteId === id, 1, 90_000);
      expect(seen.envelope.id).toBe(eventId);
      expect(seen.envelope.data).toEqual({ noteId: id, text: 'written while Kafka was away' });
    } finally {
      await tap.stop();
    }
    await eventually(
      async () => (await app.inject({ method: 'GET', url: '/health/ready' })).json().status === 'ready',
      30_000,
      'readiness to report Kafka up again',
    );
  }
});
