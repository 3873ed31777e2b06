import { randomUUID } from 'node:crypto';
import type { RequestSubmitted } from '@homereport/contracts';
import { type BatchingEventHandler, type EventEnvelope, createLogger, effectsInMemory } from '@homereport/kit';
import mongoose, { type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { emailsTo, waitForEmail } from '../../../test/support/mail.js';
import { addressErasureRepository } from '../src/data/address-erasure.js';
import { type Models, createModels } from '../src/data/models.js';
import { receiptWindowsRepository } from '../src/data/receipt-windows.js';
import { sentEmailsRepository } from '../src/data/sent-emails.js';
import { ReceiptDigestSender } from '../src/events/receipt-digests.js';
import { requestNotificationHandlers } from '../src/events/request-handlers.js';
import { createSmtpMailer } from '../src/mail/transport.js';

// The receipts of a burst from one account, through the real handler of request-submitted, the
// real MongoDB (a database of this file's own) and SMTP (maildev). Each "replica" is a handler
// and a digest sender of its own over the same database; the clock of the senders is a test's.

const log = createLogger({ name: 'receipt-digest-test', level: 'silent', format: 'json' });
const brand = { publicUrl: 'https://homereport.example', supportEmail: 'support@homereport.local' };
const ONE_BY_ONE = 3;
let conn: Connection;
let models: Models;

beforeAll(async () => {
  conn = await mongoose
    // As the kit opens it (autoCreate off; see support.ts).
    .createConnection(testEnv().mongoUrl, {
      dbName: 'notifications_receipt_digest_test',
      autoCreate: false,
      autoIndex: false,
    })
    .asPromise();
  models = await createModels(conn);
});
afterAll(async () => conn?.close());

function replica(clock: { now: Date }) {
  const env = testEnv();
  const mailer = createSmtpMailer({ SMTP_URL: env.smtpUrl, MAIL_FROM: 'HomeReport <no-reply@homereport.local>' });
  const sent = sentEmailsRepository(models);
  const windows = receiptWindowsRepository(models);
  const handlers = requestNotificationHandlers({
    mailer,
    sent,
    brand,
    // Staff alerts of these requests go to an inbox nobody else reads.
    staffEmail: uniqueEmail('digest-staff'),
    supportEmail: brand.supportEmail,
    receipts: { windows, oneByOnePerHour: ONE_BY_ONE },
  });
  const handler = handlers['request-submitted'] as BatchingEventHandler;
  const digests = new ReceiptDigestSender({ windows, mailer, sent, brand, supportEmail: brand.supportEmail }, log, {
    now: () => clock.now,
  });
  return { handler, digests, close: () => mailer.close() };
}

/** `n` request-submitted events of one signed-in requester, made during the hour starting at `hour`. */
function burst(requester: { userId: string; email: string }, hour: string, n: number, from = 0): EventEnvelope[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const data: RequestSubmitted = {
      request: {
        id: randomUUID(),
        address: `${i + 1} Burst Avenue, Springfield, IL 62701`,
        url: null,
        notes: null,
        status: 'requested',
        created_at: new Date(Date.parse(hour) + (i + 1) * 1000).toISOString(),
      },
      requester,
    };
    return {
      id: randomUUID(),
      type: 'request-submitted',
      occurredAt: data.request.created_at,
      source: 'requests',
      correlationId: randomUUID(),
      data,
    };
  });
}

const receipts = async (email: string) =>
  (await emailsTo(email)).filter((m) => m.subject.startsWith('We received your request'));
const digestsTo = async (email: string) =>
  (await emailsTo(email)).filter((m) => m.subject.startsWith('We received') && m.subject.endsWith('from you'));

describe('request receipts in a burst from one account', () => {
  it('go out one by one for the first few of an hour, the rest in one digest after it, with two replicas', async () => {
    const requester = { userId: randomUUID(), email: uniqueEmail('digest') };
    const clock = { now: new Date('2031-03-04T10:30:00.000Z') };
    const [a, b] = [replica(clock), replica(clock)];
    try {
      const events = burst(requester, '2031-03-04T10:00:00.000Z', 9);
      const [effectsA, effectsB] = [effectsInMemory(), effectsInMemory()];
      // Two replicas consume the burst at once (its requests spread over partitions).
      await Promise.all([
        a.handler.batch(
          events.filter((_, i) => i % 2 === 0),
          log,
          effectsA,
        ),
        b.handler.batch(
          events.filter((_, i) => i % 2 === 1),
          log,
          effectsB,
        ),
      ]);
      // Delivered again (an outbox relayed them twice): nothing more.
      await a.handler.batch(
        events.filter((_, i) => i % 2 === 0),
        log,
        effectsA,
      );
      await eventually(async () => (await receipts(requester.email)).length >= ONE_BY_ONE, 30_000, 'the receipts');
      const oneByOne = await receipts(requester.email);
      expect(oneByOne).toHaveLength(ONE_BY_ONE);

      // Within the hour, the digest waits.
      expect((await Promise.all([a.digests.sendDue(), b.digests.sendDue()])).map((p) => p.sent)).toEqual([0, 0]);
      expect(await digestsTo(requester.email)).toHaveLength(0);

      // After the hour (and its grace), both replicas look at once: one digest goes out.
      clock.now = new Date('2031-03-04T11:03:00.000Z');
      const passes = await Promise.all([a.digests.sendDue(), b.digests.sendDue()]);
      expect(passes.reduce((sum, p) => sum + p.sent, 0)).toBe(1);
      const [digest] = await eventually(
        async () => {
          const found = await digestsTo(requester.email);
          return found.length > 0 && found;
        },
        30_000,
        'the digest',
      );
      expect(digest?.subject).toBe('We received 6 more coverage requests from you');
      // Which three went out one by one depends on the replicas' interleaving: the digest lists
      // every other one, and between them they tell of all nine.
      const told = [
        ...oneByOne.map((m) => /for (\d+) Burst Avenue/.exec(m.subject)?.[1]),
        ...[...(digest?.text.matchAll(/Request \d+: (\d+) Burst Avenue/g) ?? [])].map((m) => m[1]),
      ];
      expect(told.map(Number).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(digest?.text).toContain('10:00 UTC');
      expect(await receipts(requester.email)).toHaveLength(ONE_BY_ONE);

      // A receipt of that hour consumed after its digest went out is sent on its own.
      await a.handler.batch(burst(requester, '2031-03-04T10:00:00.000Z', 1, 9), log, effectsA);
      await waitForEmail(requester.email, /^We received your request for 10 Burst Avenue/);
      // And nothing is left to send.
      expect((await a.digests.sendDue()).due).toBe(0);
      expect(await digestsTo(requester.email)).toHaveLength(1);
    } finally {
      a.close();
      b.close();
    }
  });

  it("are not sent in a digest once the account's address was erased", async () => {
    const requester = { userId: randomUUID(), email: uniqueEmail('digest-erased') };
    const clock = { now: new Date('2031-03-05T10:30:00.000Z') };
    const a = replica(clock);
    try {
      await a.handler.batch(burst(requester, '2031-03-05T10:00:00.000Z', ONE_BY_ONE + 2), log, effectsInMemory());
      await waitForEmail(requester.email, /^We received your request/);
      expect(await addressErasureRepository(models).eraseReceiptWindowsTo(requester.email)).toBe(1);
      clock.now = new Date('2031-03-05T11:03:00.000Z');
      expect((await a.digests.sendDue()).due).toBe(0);
      expect(await digestsTo(requester.email)).toHaveLength(0);
    } finally {
      a.close();
    }
  });
});
