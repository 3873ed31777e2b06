import { randomUUID } from 'node:crypto';
import { Topics, sealContext } from '@homereport/contracts';
import {
  type EventConsumer,
  type EventPublisher,
  type OutboxEntry,
  type ProcessedEvent,
  createEvent,
  createKafka,
  createLogger,
  deadLetterTopic,
  ensureTopics,
  sealSecret,
  startConsumer,
} from '@homereport/kit';
import { Redis } from 'ioredis';
import { type Collection, MongoClient } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { afterAll, beforeAll } from 'vitest';
import { uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { createModels } from '../src/data/models.js';
import { sentEmailsRepository } from '../src/data/sent-emails.js';
import { notificationHandlers } from '../src/events/consumers.js';
import { createSmtpMailer } from '../src/mail/transport.js';
import { CONTACT_RATE_KEY_PREFIX } from '../src/routes/contact/index.js';

/** The stack's notifications service runs with its defaults unless the environment says otherwise. */
export const STAFF_EMAIL = process.env.STAFF_EMAIL ?? 'staff@homereport.local';
export const CONTACT_LIMIT = Number(process.env.CONTACT_RATE_LIMIT_PER_HOUR ?? 5);
const MONGO_DB = process.env.MONGO_DB ?? 'homereport_notifications';

/**
 * Every test reaches the gateway from 127.0.0.1, so all of them share one contact allowance.
 * Tests that send contact messages start from a fresh allowance and leave one behind.
 */
export async function clearContactRateLimits(): Promise<void> {
  const redis = new Redis(testEnv().redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${CONTACT_RATE_KEY_PREFIX}*`, 'COUNT', 100);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

/** The service's own database, read only, to check what it stored. */
export async function openNotificationsDb(): Promise<Connection> {
  return mongoose
    .createConnection(testEnv().mongoUrl, { dbName: MONGO_DB, serverSelectionTimeoutMS: 5000 })
    .asPromise();
}

/**
 * The kit's consumer with the real notifications handler for user-registered, on a topic and a
 * consumer group of a test's own (so the stack's notifications service never sees its events),
 * against the real Kafka, MongoDB (database `db`) and SMTP (maildev). Opened before the file's
 * tests and closed after them.
 */
export function useOwnRegistrationTopic(db: string, name: string) {
  const env = testEnv();
  const logger = createLogger({ name, level: 'silent', format: 'json' });
  const kafka = createKafka(env.kafkaBrokers.split(','), name, logger);
  let conn: Connection;
  let mongo: MongoClient;
  beforeAll(async () => {
    // As the kit opens it (autoCreate off): the models' own collection creation would race
    // syncIndexes' on a fresh database, which the embedded server answers with an error.
    conn = await mongoose
      .createConnection(env.mongoUrl, { dbName: db, autoCreate: false, autoIndex: false })
      .asPromise();
    mongo = await new MongoClient(env.mongoUrl).connect();
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.close();
  });
  const processedEvents = () => mongo.db(db).collection<ProcessedEvent>('processed_events');

  return {
    env,
    kafka,
    processedEvents,

    /** A user-registered event for a new address (its sealed token `<prefix>-token`), on a new topic for a new group. */
    async registration(prefix: string) {
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
    },

    /** Publishes `event` on `topic`, `times` times (as an outbox relaying it again would). */
    async publish(topic: string, event: OutboxEntry, times = 1) {
      const producer = kafka.producer();
      await producer.connect();
      const { key, ...envelope } = event;
      const message = { key, value: JSON.stringify(envelope) };
      await producer.send({ topic, acks: -1, messages: Array.from({ length: times }, () => message) });
      await producer.disconnect();
    },

    /** The real handler of user-registered consuming `topic` as `groupId`; `processed` replaces the claims collection. */
    async consumer(
      groupId: string,
      topic: string,
      options: {
        processed?: Collection<ProcessedEvent>;
        claimLeaseMs?: number;
        retryBaseMs?: number;
        claimsGroup?: string;
      } = {},
    ): Promise<EventConsumer> {
      const handlers = notificationHandlers({
        eventSecretKey: env.eventSecretKey,
        mailer: createSmtpMailer({ SMTP_URL: env.smtpUrl, MAIL_FROM: 'HomeReport <no-reply@homereport.local>' }),
        sent: sentEmailsRepository(await createModels(conn)),
        brand: { publicUrl: env.gatewayUrl, supportEmail: 'support@homereport.local' },
        staffEmail: 'staff@homereport.local',
        supportEmail: 'support@homereport.local',
      });
      const handler = handlers[Topics.userRegistered];
      if (!handler) throw new Error('notifications has no user-registered handler');
      return startConsumer({
        kafka,
        groupId,
        processed: options.processed ?? processedEvents(),
        ledger: mongo.db(db).collection('processed_events_ledger'),
        publisher: { sendRaw: async () => undefined } as Pick<EventPublisher, 'sendRaw'>,
        logger,
        ...(options.claimLeaseMs === undefined ? {} : { claimLeaseMs: options.claimLeaseMs }),
        ...(options.retryBaseMs === undefined ? {} : { retryBaseMs: options.retryBaseMs }),
        ...(options.claimsGroup === undefined ? {} : { claimsGroup: options.claimsGroup }),
        handlers: { [topic]: handler },
      });
    },

    /** The committed offset of the group on partition 0: the positive signal that it moved past the messages. */
    async committedOffset(groupId: string, topic: string): Promise<number> {
      const admin = kafka.admin();
      await admin.connect();
      try {
        const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
        return Number(entry?.partitions.find((p) => p.partition === 0)?.offset ?? -1);
      } finally {
        await admin.disconnect();
      }
    },

    /** The group's claim on the event. */
    claimOf: (groupId: string, eventId: string) => processedEvents().findOne({ _id: `${groupId}:${eventId}` }),
  };
}
