import { randomUUID } from 'node:crypto';
import { sealContext } from '@homereport/contracts';
import { type OutboxEntry, createEvent, deadLetterTopic, sealSecret } from '@homereport/kit';
import type { Producer } from 'kafkajs';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { EventTap, testKafka } from '../../../test/support/events.js';
import { injectingFault } from '../../../test/support/faults.js';
import { emailsTo, linkIn, waitForEmail } from '../../../test/support/mail.js';
import { openNotificationsDb } from './support.js';

// The stack's notifications service is the consumer under test: these tests publish events as
// the auth service would, straight to Kafka, and read what arrives in maildev.

/** An envelope as auth's outbox would publish it, keyed by the user (one user, one partition). */
const event = (type: string, data: Record<string, unknown>, key: string) =>
  createEvent(type, data, { source: 'notifications-test', key });

/** A token sealed as auth seals it for us. */
const seal = (purpose: 'verification' | 'password-reset', userId: string, token: string) =>
  sealSecret(testEnv().eventSecretKey, token, sealContext(purpose, userId));

const kafka = testKafka('notifications-test');
let producer: Producer;
let db: Connection;

async function publish({ key, ...envelope }: OutboxEntry): Promise<void> {
  await producer.send({ topic: envelope.type, acks: -1, messages: [{ key, value: JSON.stringify(envelope) }] });
}

beforeAll(async () => {
  producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  db = await openNotificationsDb();
});
afterAll(async () => {
  await producer?.disconnect();
  await db?.close();
});

describe('when a user registers', () => {
  it('the user gets a verification email, in HTML and text, whose button links the verification page', async () => {
    const email = uniqueEmail('verify');
    const userId = randomUUID();
    const token = randomUUID();
    const verifyUrl = `${testEnv().gatewayUrl}/verify-email?token=${token}`;
    await publish(
      event('user-registered', { userId, email, sealedVerifyToken: seal('verification', userId, token) }, userId),
    );

    const mail = await waitForEmail(email, /Verify your email for HomeReport/);
    expect(linkIn(mail, '/verify-email?token=')).toBe(verifyUrl);
    expect(mail.text).toContain(verifyUrl);
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain('HomeReport');
      expect(part).toContain('expires in 24 hours');
    }
    expect(mail.html).toMatch(/<a href="[^"]*verify-email\?token=[^"]*"[^>]*>Verify my email<\/a>/);
  });
});

describe('when a verification email is asked for again', () => {
  it('verification-resend-requested sends a verification email with the new link', async () => {
    const email = uniqueEmail('resend');
    const userId = randomUUID();
    const token = randomUUID();
    await publish(
      event(
        'verification-resend-requested',
        { userId, email, sealedVerifyToken: seal('verification', userId, token) },
        userId,
      ),
    );
    const mail = await waitForEmail(email, /Verify your email for HomeReport/);
    expect(linkIn(mail, '/verify-email?token=')).toBe(`${testEnv().gatewayUrl}/verify-email?token=${token}`);
  });
});

describe('when a password reset is requested', () => {
  it('the user gets a reset email, in HTML and text, whose button links the reset page and expires in 1 hour', async () => {
    const email = uniqueEmail('reset');
    const userId = randomUUID();
    const token = randomUUID();
    const resetUrl = `${testEnv().gatewayUrl}/reset-password?token=${token}`;
    await publish(
      event(
        'password-reset-requested',
        { userId, email, sealedResetToken: seal('password-reset', userId, token) },
        userId,
      ),
    );

    const mail = await waitForEmail(email, /Reset your HomeReport password/);
    expect(linkIn(mail, '/reset-password?token=')).toBe(resetUrl);
    expect(mail.text).toContain(resetUrl);
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain('expires in 1 hour');
      expect(part).toMatch(/If you did not ask to reset your password, ignore this email/);
    }
    expect(mail.html).toMatch(/<a href="[^"]*reset-password\?token=[^"]*"[^>]*>Choose a new password<\/a>/);
  });
});

describe('when Kafka delivers the same event twice', () => {
  it('only one email is sent, and one is recorded for operators', async () => {
    const userId = randomUUID();
    const email = uniqueEmail('redelivered');
    const first = event(
      'user-registered',
      { userId, email, sealedVerifyToken: seal('verification', userId, randomUUID()) },
      userId,
    );
    await publish(first);
    await waitForEmail(email, /Verify your email/);

    // The same envelope again, then a marker on the same partition (same key), which the consumer
    // reaches only after it has dealt with the redelivery.
    const markerEmail = uniqueEmail('marker');
    await publish(first);
    await publish(
      event(
        'user-registered',
        { userId, email: markerEmail, sealedVerifyToken: seal('verification', userId, 'm') },
        userId,
      ),
    );
    // The marker follows the redelivery on one partition: once its email is out, the redelivery
    // was dealt with before it.
    await waitForEmail(markerEmail, /Verify your email/);

    expect(await emailsTo(email)).toHaveLength(1);
    const records = await db.collection('sent_emails').find({ eventId: first.id }).toArray();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ eventId: first.id, kind: 'verification', to: email, sentAt: expect.any(Date) });
  });
});

describe('when an event cannot be turned into an email', () => {
  it('a token not sealed with our key sends nothing and the event goes to the dead-letter topic, token unrevealed', async () => {
    const email = uniqueEmail('poison');
    const userId = randomUUID();
    const poison = event(
      'user-registered',
      { userId, email, sealedVerifyToken: seal('password-reset', userId, 'forged-token') },
      userId,
    );
    const deadLetters = await new EventTap([deadLetterTopic('notifications')]).start();
    try {
      // The service rightly logs this event's failure at error level: a fault on purpose.
      const dead = await injectingFault('a poison event', async () => {
        await publish(poison);
        // The kit tries five times with backoff (about 8 seconds) before giving up.
        return eventually(
          async () => deadLetters.seen.find((d) => d.envelope.id === poison.id),
          45_000,
          'the dead letter',
        );
      });
      expect(dead.headers['original-topic']).toBe('user-registered');
      expect(dead.headers.error).toBe('the verification token in the event does not open with EVENT_SECRET_KEY');
      expect(await emailsTo(email)).toHaveLength(0);
    } finally {
      await deadLetters.stop();
    }
  });
});
