import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiResponse, api, eventually, freshClientAddress, uniqueEmail } from '../../../test/support/api.js';
import { type Email, waitForEmail } from '../../../test/support/mail.js';
import { CONTACT_LIMIT, STAFF_EMAIL, clearContactRateLimits, openNotificationsDb } from './support.js';

const THANKS = 'Thanks! Your message has been received. We reply within 24 hours on business days.';

const buildContact = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ann Buyer',
  email: uniqueEmail('contact'),
  subject: `Coverage question ${randomUUID().slice(0, 8)}`,
  message: 'Hello,\nDo you cover 12 Elm St, Springfield?\nThanks',
  ...overrides,
});

const sendContact = (body: unknown, headers?: Record<string, string>) => api('POST', '/api/contact', { body, headers });

let db: Connection;
beforeAll(async () => {
  db = await openNotificationsDb();
  await clearContactRateLimits();
});
afterAll(async () => {
  await clearContactRateLimits();
  await db?.close();
});

describe('when a visitor sends a valid contact message', () => {
  // A name and text that would be markup if an email pasted them in unescaped.
  const contact = buildContact({
    name: '  Ann <b>Buyer</b>  ',
    message: 'Hello <script>alert(1)</script>,\nis 12 Elm St covered? A & B',
  });
  let res: ApiResponse;
  beforeAll(async () => {
    res = await sendContact(contact);
  });

  it('is answered 202 with the promise of a reply within 24 hours on business days', () => {
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: THANKS });
  });

  it('reaches the staff inbox with the name, email, subject and message, and replies go to the sender', async () => {
    const mail = await waitForEmail(STAFF_EMAIL, new RegExp(escapeRegExp(contact.subject)));
    expect(mail.subject).toBe(`Contact form: ${contact.subject}`);
    expect(replyTo(mail)).toBe(contact.email);
    expect(mail.text).toContain('Name: Ann <b>Buyer</b>');
    expect(mail.text).toContain(`Email: ${contact.email}`);
    expect(mail.text).toContain(`Subject: ${contact.subject}`);
    expect(mail.text).toContain('> Hello <script>alert(1)</script>,\n> is 12 Elm St covered? A & B');
    expect(mail.html).toContain('Ann &lt;b&gt;Buyer&lt;/b&gt;');
    expect(mail.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('HomeReport');
  });

  it('is acknowledged to the sender with a reply promise and none of their words: not name, subject or message', async () => {
    const mail = await waitForEmail(contact.email, /We received your message/);
    expect(mail.subject).toBe('We received your message to HomeReport');
    for (const part of [mail.subject, mail.html, mail.text]) {
      expect(part).not.toContain('Buyer');
      expect(part).not.toContain(contact.subject);
      expect(part).not.toContain('12 Elm St');
    }
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain('HomeReport');
      expect(part).toContain('within 24 hours on business days');
    }
  });

  it('is stored trimmed, and its event leaves the outbox once published', async () => {
    const stored = await eventually(
      async () => {
        const doc = await db.collection('contact_messages').findOne({ email: contact.email });
        return doc && Array.isArray(doc.outbox) && doc.outbox.length === 0 ? doc : null;
      },
      30_000,
      'the stored message with an empty outbox',
    );
    expect(stored).toMatchObject({ name: 'Ann <b>Buyer</b>', subject: contact.subject, message: contact.message });
  });
});

describe('when a contact message is invalid, it is refused with 400 naming the field', () => {
  it.each(['name', 'email', 'subject', 'message'])('a blank %s', async (field) => {
    const contact = buildContact({ [field]: '   \n\t ' });
    const res = await sendContact(contact);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`${field}: must not be blank`);
  });

  it('a malformed email', async () => {
    const res = await sendContact(buildContact({ email: 'ann-at-example.test' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^email: must match format "email"/);
  });

  it('a missing field', async () => {
    const { message: _omitted, ...rest } = buildContact();
    const res = await sendContact(rest);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^message: must have required property/);
  });

  it('an extra field', async () => {
    const res = await sendContact(buildContact({ phone: '555-0100' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^phone: must NOT have additional properties/);
  });

  it('a field that is not a string', async () => {
    const res = await sendContact(buildContact({ name: 42 }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('name: must be string');
  });

  it('a message over 5000 characters', async () => {
    const res = await sendContact(buildContact({ message: 'x'.repeat(5001) }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^message: must NOT have more than 5000 characters/);
  });

  it('a body that is not JSON', async () => {
    const res = await api('POST', '/api/contact', { raw: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.any(String) });
  });

  it('and nothing is stored', async () => {
    const contact = buildContact({ subject: '  ' });
    expect((await sendContact(contact)).status).toBe(400);
    expect(await db.collection('contact_messages').countDocuments({ email: contact.email })).toBe(0);
  });
});

describe('the hourly limit per client address', () => {
  beforeEach(clearContactRateLimits);
  afterEach(clearContactRateLimits);

  it(`accepts ${CONTACT_LIMIT} messages and refuses the next with 429 and Retry-After`, async () => {
    for (let i = 0; i < CONTACT_LIMIT; i++) expect((await sendContact(buildContact())).status).toBe(202);
    const refused = await sendContact(buildContact());
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', error: expect.stringMatching(/wait/) });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
  });

  it('cannot be dodged by sending a made-up x-forwarded-for', async () => {
    const forged = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` });
    for (let i = 0; i < CONTACT_LIMIT; i++) expect((await sendContact(buildContact(), forged(i))).status).toBe(202);
    expect((await sendContact(buildContact(), forged(99))).status).toBe(429);
  });

  it('is not spent by refused invalid messages', async () => {
    for (let i = 0; i <= CONTACT_LIMIT; i++) expect((await sendContact(buildContact({ name: ' ' }))).status).toBe(400);
    expect((await sendContact(buildContact())).status).toBe(202);
  });
});

describe('the hourly limit per sender email address', () => {
  it('accepts 3 messages naming one email address, from any client, and refuses the next with 429', async () => {
    const email = uniqueEmail('target');
    for (let i = 0; i < 3; i++) {
      expect(
        (await api('POST', '/api/contact', { body: buildContact({ email }), from: freshClientAddress() })).status,
      ).toBe(202);
    }
    const refused = await api('POST', '/api/contact', { body: buildContact({ email }), from: freshClientAddress() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api('POST', '/api/contact', { body: buildContact(), from: freshClientAddress() })).status).toBe(202);
  });
});

function replyTo(mail: Email): string | undefined {
  return mail.replyTo?.[0]?.address ?? /<([^>]+)>/.exec(mail.headers['reply-to'] ?? '')?.[1];
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
