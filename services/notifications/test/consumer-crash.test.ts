import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Topics, sealContext } from '@homereport/contracts';
import {
  type EventPublisher,
  createEvent,
  createKafka,
  createLogger,
  deadLetterTopic,
  ensureTopics,
  sealSecret,
  startConsumer,
} from '@homereport/kit';
import type { Consumer } from 'kafkajs';
import { MongoClient } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../infra/local/servers.mjs';
import { eventually, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { emailsTo, waitForEmail } from '../../../test/support/mail.js';
import { createModels } from '../src/data/models.js';
import { sentEmailsRepository } from '../src/data/sent-emails.js';
import { notificationHandlers } from '../src/events/consumers.js';
import { createSmtpMailer } from '../src/mail/transport.js';

// The kit's consumer with the real notifications handler for user-registered, on a topic and a
// consumer group of this test's own (so the stack's notifications service does not see it).
const env = testEnv();
const DB = 'notifications_crash_test';
const LEASE_MS = 3000;
const logger = createLogger({ name: 'crash-test', level: 'silent', format: 'json' });
const kafka = createKafka(env.kafkaBrokers.split(','), 'crash-test', logger);
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

async function notificationsConsumer(groupId: string, topic: string): Promise<Consumer> {
  const models = await createModels(conn);
  const handlers = notificationHandlers({
    eventSecretKey: env.eventSecretKey,
    mailer: createSmtpMailer({ SMTP_URL: env.smtpUrl, MAIL_FROM: 'HomeReport <no-reply@homereport.local>' }),
    sent: sentEmailsRepository(models),
    brand: { publicUrl: env.gatewayUrl, supportEmail: 'support@homereport.local' },
    staffEmail: 'staff@homereport.local',
    supportEmail: 'support@homereport.local',
  });
  const db = mongo.db(DB);
  return startConsumer({
    kafka,
    groupId,
    processed: db.collection('processed_events'),
    ledger: db.collection('processed_events_ledger'),
    publisher: { sendRaw: async () => undefined } as Pick<EventPublisher, 'sendRaw'>,
    logger,
    claimLeaseMs: LEASE_MS,
    handlers: { [topic]: handlers[Topics.userRegistered]! },
  });
}

/** The committed offset of the group on partition 0: the positive signal that it moved past a message. */
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

describe('a notifications process killed after claiming an event and before sending', () => {
  it('still yields exactly one email once a consumer of its group runs again', async () => {
    const topic = `crash-test-${randomUUID().slice(0, 8)}`;
    const groupId = `crash-test-${randomUUID().slice(0, 8)}`;
    await ensureTopics(kafka, [topic, deadLetterTopic(groupId)], 1);
    const email = uniqueEmail('crash');
    const userId = randomUUID();
    const sealedVerifyToken = sealSecret(env.eventSecretKey, 'crash-token', sealContext('verification', userId));
    const event = createEvent(
      Topics.userRegistered,
      { userId, email, sealedVerifyToken },
      { source: 'test', key: userId },
    );
    const producer = kafka.producer();
    await producer.connect();
    const { key, ...envelope } = event;
    await producer.send({ topic, acks: -1, messages: [{ key, value: JSON.stringify(envelope) }] });
    await producer.disconnect();

    const victim = spawn(
      process.execPath,
      ['--import', 'tsx', 'services/notifications/test/fixtures/claim-and-hang.ts'],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          MONGO_URL: env.mongoUrl,
          MONGO_DB: DB,
          KAFKA_BROKERS: env.kafkaBrokers,
          GROUP_ID: groupId,
          TOPIC: topic,
          CLAIM_LEASE_MS: String(LEASE_MS),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const claimed = new Promise<void>((resolve, reject) => {
      createInterface({ input: victim.stdout }).on('line', (line) => {
        if (line === `claimed ${event.id}`) resolve();
      });
      victim.once('exit', (code) => reject(new Error(`the victim exited (${code}) before claiming`)));
    });
    try {
      await claimed;
      const claim = await mongo
        .db(DB)
        .collection('processed_events')
        .findOne({ _id: `${groupId}:${event.id}` as never });
      expect(claim).toMatchObject({ status: 'processing' });
    } finally {
      victim.kill('SIGKILL');
    }

    const consumer = await notificationsConsumer(groupId, topic);
    try {
      const mail = await waitForEmail(email, /Verify your email/, 60_000);
      expect(mail.text).toContain('/verify-email?token=crash-token');
      // Positive signal that the consumer is done with the message: its offset is committed.
      await eventually(async () => (await committedOffset(groupId, topic)) === 1, 30_000, 'the committed offset');
      expect(await emailsTo(email)).toHaveLength(1);
      const claim = await mongo
        .db(DB)
        .collection('processed_events')
        .findOne({ _id: `${groupId}:${event.id}` as never });
      expect(claim).toMatchObject({ status: 'done' });
    } finally {
      await consumer.disconnect();
    }
  });
});
