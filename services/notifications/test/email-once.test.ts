import { randomUUID } from 'node:crypto';
import { Topics, sealContext } from '@homereport/contracts';
import {
  type EventPublisher,
  type ProcessedEvent,
  createEvent,
  createKafka,
  createLogger,
  deadLetterTopic,
  ensureTopics,
  sealSecret,
  startConsumer,
} from '@homereport/kit';
import type { Consumer } from 'kafkajs';
import { type Collection, MongoClient } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { emailsTo, waitForEmail } from '../../../test/support/mail.js';
import { createModels } from '../src/data/models.js';
import { sentEmailsRepository } from '../src/data/sent-emails.js';
import { notificationHandlers } from '../src/events/consumers.js';
import { createSmtpMailer } from '../src/mail/transport.js';

// An email goes out once per event even when the bookkeeping around the send fails or the event
// arrives twice: the kit's consumer with the real notifications handler for user-registered, on
// a topic and a consumer group of this test's own, against the real servers and SMTP (maildev).
const env = testEnv();
const DB = 'notifications_email_once_test';
const logger = createLogger({ name: 'email-once-test', level: 'silent', format: 'json' });
const kafka = createKafka(env.kafkaBrokers.split(','), 'email-once-test', logger);
let conn: Connection;
let mongo: MongoClient;

beforeAll(async () => {
  conn = await mongoose.createConnection(env.mongoUrl, { dbName: DB }).asPromise();
  mongo = await new MongoClient(env.mongoUrl).connect();
});
afterAll(async () => {
  await conn?.close();
  await mongo?.close();
});

/**
 * The claims collection, except that the first write recording an effect on a claim fails as
 * when MongoDB went away just after the SMTP server accepted the email (the write never reached
 * the server). `failed` counts the writes failed so.
 */
function failingFirstEffectRecord(processed: Collection<ProcessedEvent>) {
  const state = { failed: 0 };
  const proxy = new Proxy(processed, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === 'updateOne' || prop === 'updateMany') {
        return async (filter: unknown, update: { $addToSet?: { effects?: unknown } }, options?: unknown) => {
          if (update.$addToSet?.effects !== undefined && state.failed === 0) {
            state.failed++;
            throw Object.assign(new Error('connection closed (test)'), { name: 'MongoNetworkError' });
          }
          return (value as (...args: unknown[]) => Promise<unknown>).call(target, filter, update, options);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { processed: proxy, state };
}

async function consumerOf(groupId: string, topic: string, processed: Collection<ProcessedEvent>): Promise<Consumer> {
  const handlers = notificationHandlers({
    eventSecretKey: env.eventSecretKey,
    mailer: createSmtpMailer({ SMTP_URL: env.smtpUrl, MAIL_FROM: 'HomeReport <no-reply@homereport.local>' }),
    sent: sentEmailsRepository(await createModels(conn)),
    brand: { publicUrl: env.gatewayUrl, supportEmail: 'support@homereport.local' },
    staffEmail: 'staff@homereport.local',
    supportEmail: 'support@homereport.local',
  });
  return startConsumer({
    kafka,
    groupId,
    processed,
    ledger: mongo.db(DB).collection('processed_events_ledger'),
    publisher: { sendRaw: async () => undefined } as Pick<EventPublisher, 'sendRaw'>,
    logger,
    retryBaseMs: 50,
    handlers: { [topic]: handlers[Topics.userRegistered]! },
  });
}

/** A user-registered event for a new address, and its topic and group (both new). */
async function registration(prefix: string) {
  const topic = `${prefix}-${randomUUID().slice(0, 8)}`;
  const groupId = `${prefix}-${randomUUID().slice(0, 8)}`;
  await ensureTopics(kafka, [topic, deadLetterTopic(groupId)], 1);
  const email = uniqueEmail(prefix);
  const userId = randomUUID();
  const sealedVerifyToken = sealSecret(env.eventSecretKey, `${prefix}-token`, sealContext('verification', userId));
  const event = createEvent(
    Topics.userRegistered,
    { userId, email, sealedVerifyToken },
    { source: 'test', key: userId },
  );
  return { topic, groupId, email, event };
}

async function publish(topic: string, event: ReturnType<typeof createEvent>, times: number) {
  const producer = kafka.producer();
  await producer.connect();
  const { key, ...envelope } = event;
  const message = { key, value: JSON.stringify(envelope) };
  await producer.send({ topic, acks: -1, messages: Array.from({ length: times }, () => message) });
  await producer.disconnect();
}

/** The committed offset of the group on partition 0: the positive signal that it moved past the messages. */
async function committedOffset(groupId: string, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return Number(entry?.partitions.find((p) => p.partition === 0)?.offset ?? -1);
  } finally {
    await admin.disconnect();
  }
}

const claimOf = (groupId: string, eventId: string) =>
  mongo
    .db(DB)
    .collection('processed_events')
    .findOne({ _id: `${groupId}:${eventId}` as never });

describe('an email sent for an event', () => {
  it('is not sent again when recording it on the claim failed after the SMTP server took it', async () => {
    const { topic, groupId, email, event } = await registration('email-record-fails');
    await publish(topic, event, 1);
    const { processed, state } = failingFirstEffectRecord(mongo.db(DB).collection('processed_events'));
    const consumer = await consumerOf(groupId, topic, processed);
    try {
      await waitForEmail(email, /Verify your email/, 60_000);
      await eventually(async () => (await committedOffset(groupId, topic)) === 1, 30_000, 'the committed offset');
      expect(state.failed).toBe(1);
      // The handler failed once (the record) and was retried: the retry knew the email went out.
      expect(await emailsTo(email)).toHaveLength(1);
      expect(await claimOf(groupId, event.id)).toMatchObject({ status: 'done' });
    } finally {
      await consumer.disconnect();
    }
  });

  it('goes out once when the event is delivered twice (an outbox relayed it again after a crash)', async () => {
    const { topic, groupId, email, event } = await registration('email-relayed-twice');
    await publish(topic, event, 2);
    const consumer = await consumerOf(groupId, topic, mongo.db(DB).collection('processed_events'));
    try {
      await waitForEmail(email, /Verify your email/, 60_000);
      await eventually(async () => (await committedOffset(groupId, topic)) === 2, 30_000, 'the committed offset');
      expect(await emailsTo(email)).toHaveLength(1);
    } finally {
      await consumer.disconnect();
    }
  });
});
