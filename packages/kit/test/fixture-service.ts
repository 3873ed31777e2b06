import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { Schema } from 'mongoose';
import { testEnv } from '../../../test/support/env.js';
import {
  Infrastructure,
  type Needs,
  type OutboxRelay,
  type ServiceApp,
  createEvent,
  createLogger,
  createServiceApp,
  ensureTopics,
  outboxSchemaPath,
} from '../src/index.js';

/**
 * A minimal service built from the kit the way every real service is: a write route that
 * records a note and its `note-recorded` event in one document, an outbox relay, readiness.
 */
export async function buildNoteService(
  infra: Infrastructure,
  topic: string,
): Promise<{ app: ServiceApp; relay: OutboxRelay }> {
  const app = await createServiceApp({
    name: 'fixture',
    logger: createLogger({ name: 'fixture', level: 'warn', format: 'json' }),
  });
  await infra.attach(app);
  const Note = infra.mongoose.model(
    'Note',
    new Schema({ _id: String, text: String, outbox: outboxSchemaPath }, { collection: 'notes', versionKey: false }),
  );
  const relay = infra.startOutboxRelay(['notes'], { sweepIntervalMs: 200, graceMs: 500 });
  app.post(
    '/notes',
    { schema: { body: Type.Object({ text: Type.String({ minLength: 1 }) }, { additionalProperties: false }) } },
    async (req, reply) => {
      const id = randomUUID();
      const event = createEvent(
        topic,
        { noteId: id, text: req.body.text },
        { source: 'fixture', key: id, correlationId: req.id },
      );
      await relay.record('notes', id, () => Note.create({ _id: id, text: req.body.text, outbox: [event] }));
      return reply.status(201).send({ id, eventId: event.id });
    },
  );
  return { app, relay };
}

/**
 * Opens what `needs` asks for on the test run's servers and starts the note service on a fresh
 * topic; closing the app closes the connections.
 */
export async function startNoteService(
  name: string,
  needs: Omit<Needs, 'kafkaTopics' | 'mongoDb'>,
): Promise<{ infra: Infrastructure; app: ServiceApp; topic: string }> {
  const env = testEnv();
  const topic = `note-recorded-${randomUUID().slice(0, 8)}`;
  const infra = await Infrastructure.open(
    name,
    {
      MONGO_URL: env.mongoUrl,
      REDIS_URL: env.redisUrl,
      KAFKA_BROKERS: env.kafkaBrokers,
      S3_ENDPOINT: env.s3.endpoint,
      S3_ACCESS_KEY: env.s3.accessKey,
      S3_SECRET_KEY: env.s3.secretKey,
      S3_BUCKET: 'kit-test',
    },
    { ...needs, mongoDb: 'kit_test', mongoose: true, kafkaTopics: [topic] },
    createLogger({ name, level: 'silent', format: 'json' }),
  );
  await ensureTopics(infra.kafka, [topic], 1);
  const { app } = await buildNoteService(infra, topic);
  await app.ready();
  return { infra, app, topic };
}
