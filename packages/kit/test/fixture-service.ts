import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { Schema } from 'mongoose';
import {
  type Infrastructure,
  type OutboxRelay,
  type ServiceApp,
  createEvent,
  createLogger,
  createServiceApp,
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
  infra.attach(app);
  const Note = infra.mongo.model(
    'Note',
    new Schema({ _id: String, text: String, outbox: outboxSchemaPath }, { collection: 'notes', versionKey: false }),
  );
  const relay = infra.startOutboxRelay(['notes'], 200);
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
      await Note.create({ _id: id, text: req.body.text, outbox: [event] });
      relay.nudge();
      return reply.status(201).send({ id, eventId: event.id });
    },
  );
  return { app, relay };
}
