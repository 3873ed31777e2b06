import { randomUUID } from 'node:crypto';
import { type RequestCovered, Topics } from '@homereport/contracts';
import { createEvent } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { api, eventually, uniqueEmail } from '../../../test/support/api.js';
import { testKafka } from '../../../test/support/events.js';
import { emailsTo, waitForEmail } from '../../../test/support/mail.js';

/** Bulk emails waiting when the new user registers: many seconds of sending at the stack's pace. */
const BACKLOG = 200;

/** BACKLOG request-covered events of one signed-in requester, on the real topic, as requests publishes them. */
async function publishBacklog(requesterEmail: string): Promise<void> {
  const userId = randomUUID();
  const events = Array.from({ length: BACKLOG }, (_, i) => {
    const id = randomUUID();
    const now = new Date().toISOString();
    const data: RequestCovered = {
      request: {
        id,
        address: `${i + 1} Backlog Lane, Springfield, IL 62701`,
        url: null,
        notes: null,
        status: 'covered',
        created_at: now,
      },
      requester: { userId, email: requesterEmail },
      completed_at: now,
    };
    return createEvent(Topics.requestCovered, data, { source: 'urgent-lane-test', key: id });
  });
  const producer = testKafka('urgent-lane-test').producer();
  await producer.connect();
  try {
    await producer.send({
      topic: Topics.requestCovered,
      acks: -1,
      messages: events.map(({ key, ...envelope }) => ({ key, value: JSON.stringify(envelope) })),
    });
  } finally {
    await producer.disconnect();
  }
}

describe('emails a person is waiting for', () => {
  it('a verification email is not held up by a backlog of bulk emails', async () => {
    const requester = uniqueEmail('backlog');
    await publishBacklog(requester);
    // The stack's notifications service is working through the backlog.
    await eventually(async () => (await emailsTo(requester)).length > 0, 60_000, 'the first backlog email');

    const email = uniqueEmail('urgent-lane');
    const registeredAt = Date.now();
    const res = await api('POST', '/api/auth/register', { body: { email, password: 'correct horse 1' } });
    expect(res.status).toBe(201);
    await waitForEmail(email, /verify/i, 60_000);
    const seconds = (Date.now() - registeredAt) / 1000;
    const backlogSent = (await emailsTo(requester)).length;
    console.log(
      `[urgent-lane] verification email after ${seconds.toFixed(2)} s, ${backlogSent} of ${BACKLOG} backlog emails sent by then`,
    );
    // Queued behind the backlog, it would arrive only after every backlog email.
    expect(backlogSent).toBeLessThan(BACKLOG);

    // The bulk lane still sends every one of them, each once.
    await eventually(async () => (await emailsTo(requester)).length >= BACKLOG, 180_000, 'the whole backlog');
    expect(await emailsTo(requester)).toHaveLength(BACKLOG);
  }, 300_000);
});
