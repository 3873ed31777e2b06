import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafka as kafkaServer, stopByPidFile, waitForPort } from '../../../infra/local/servers.mjs';
import { eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { Infrastructure, type ServiceApp, createLogger, ensureTopics } from '../src/index.js';
import { buildNoteService } from './fixture-service.js';

// Needs the local Kafka process to stop and restart it; with containers or explicit URLs the
// broker is not ours to stop.
const env = testEnv();
const ownKafka = env.mode === 'local';

describe.runIf(ownKafka)('when Kafka stops while a service runs', () => {
  const logger = createLogger({ name: 'outage-test', level: 'silent', format: 'json' });
  const topic = `note-recorded-${randomUUID().slice(0, 8)}`;
  let infra: Infrastructure;
  let app: ServiceApp;

  beforeAll(async () => {
    infra = await Infrastructure.open(
      'outage-test',
      { MONGO_URL: env.mongoUrl, KAFKA_BROKERS: env.kafkaBrokers },
      { mongoDb: 'kit_test', kafkaTopics: [topic] },
      logger,
    );
    await ensureTopics(infra.kafka, [topic], 1);
    ({ app } = await buildNoteService(infra, topic));
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('stays up, reports not ready, keeps accepting writes, and publishes them when Kafka returns', async () => {
    await stopByPidFile(env.dataDir, 'kafka');
    await eventually(async () => !(await portOpen(env.infraPorts.kafka!)), 20_000, 'Kafka to stop');

    const live = await app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks).toMatchObject({ kafka: 'down', mongo: 'up' });

    const written = await app.inject({
      method: 'POST',
      url: '/notes',
      payload: { text: 'written while Kafka was away' },
    });
    expect(written.statusCode).toBe(201);
    const { id, eventId } = written.json();
    // The event waits in the document's outbox rather than being lost.
    const pending = await infra.mongo.collection('notes').findOne({ _id: id });
    expect(pending?.outbox.map((e: { id: string }) => e.id)).toEqual([eventId]);

    await kafkaServer(env.infraPorts, env.dataDir).start();
    await waitForPort(env.infraPorts.kafka!);

    const seen = await readTopicUntil(topic, eventId, 90_000);
    expect(JSON.parse(seen).data).toEqual({ noteId: id, text: 'written while Kafka was away' });
    await eventually(
      async () => (await app.inject({ method: 'GET', url: '/health/ready' })).statusCode === 200,
      30_000,
      'readiness to recover',
    );
  }, 180_000);
});

async function portOpen(port: number): Promise<boolean> {
  try {
    await waitForPort(port, { timeoutMs: 200 });
    return true;
  } catch {
    return false;
  }
}

async function readTopicUntil(topic: string, eventId: string, timeoutMs: number): Promise<string> {
  const kafka = new Kafka({
    clientId: 'outage-reader',
    brokers: env.kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `outage-reader-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('event not published after Kafka returned')), timeoutMs);
      void consumer.run({
        eachMessage: async ({ message }) => {
          const value = message.value?.toString() ?? '';
          if (value.includes(eventId)) {
            clearTimeout(timer);
            resolve(value);
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
}
