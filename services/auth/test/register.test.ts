import { randomUUID } from 'node:crypto';
import { Topics } from '@homereport/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freshClientAddress, uniqueEmail } from '../../../test/support/api.js';
import { PASSWORD, authApi, register, withUsers } from './support/accounts.js';
import { authEvents, openToken } from './support/events.js';

const tap = authEvents();
beforeAll(() => tap.start());
afterAll(() => tap.stop());

describe('POST /api/auth/register', () => {
  it('when a new address registers, it answers 201 with a message', async () => {
    const res = await authApi('POST', '/api/auth/register', { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: expect.stringMatching(/verify/i) });
  });

  it('publishes user-registered through the outbox with the user id, the email and the verification token sealed', async () => {
    const email = uniqueEmail('events');
    const requestId = `register-${randomUUID()}`;
    const res = await authApi('POST', '/api/auth/register', {
      body: { email, password: PASSWORD },
      headers: { 'x-request-id': requestId },
    });
    expect(res.status).toBe(201);
    const event = await tap.waitFor<{ userId: string; email: string; sealedVerifyToken: string }>(
      Topics.userRegistered,
      (d) => d.email === email,
    );
    expect(event.envelope).toMatchObject({ type: Topics.userRegistered, source: 'auth', correlationId: requestId });
    const { userId, sealedVerifyToken } = event.envelope.data;
    expect(event.key).toBe(userId);
    expect(Object.keys(event.envelope.data).sort()).toEqual(['email', 'sealedVerifyToken', 'userId']);
    // A reader of the topic sees a sealed value, not a usable token or link.
    const token = openToken(sealedVerifyToken, 'verification', userId);
    expect(token).toMatch(/^[\w-]{40,}$/);
    expect(sealedVerifyToken).not.toContain(token);
    expect(JSON.stringify(event.envelope)).not.toContain('token=');
    // Relayed: once published, the entry leaves the user document's outbox.
    await eventually(
      async () => ((await withUsers((users) => users.findOne({ email })))?.outbox ?? []).length === 0,
      10_000,
      'the outbox to empty',
    );
  });

  it('stores the email trimmed and lower-cased, an argon2id hash and only the hash of the verification token', async () => {
    const given = `Mixed.Case.${uniqueEmail().toUpperCase()}`;
    const { email, verifyToken, userId } = await register(tap, given);
    expect(email).toBe(given.toLowerCase());
    const stored = await withUsers((users) => users.findOne({ email }));
    expect(stored).toMatchObject({ role: 'user', emailVerified: false, plan: 'free' });
    expect(String(stored?._id)).toBe(userId);
    expect(stored?.created_at).toBeInstanceOf(Date);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);
    expect(stored?.verification.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(verifyToken);
    const hoursLeft = (stored?.verification.expiresAt.getTime() - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(23.9);
    expect(hoursLeft).toBeLessThanOrEqual(24);
  });

  it('when the address is already registered in another letter case, it answers 409', async () => {
    const { email } = await register(tap);
    const res = await authApi('POST', '/api/auth/register', {
      body: { email: email.toUpperCase(), password: PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/already/i);
    const count = await withUsers((users) => users.countDocuments({ email }));
    expect(count).toBe(1);
  });

  it('when the password is shorter than 8 characters, it answers 400 saying so and stores nothing', async () => {
    const email = uniqueEmail();
    const res = await authApi('POST', '/api/auth/register', { body: { email, password: 'short12' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Password must be at least 8 characters long.');
    expect(await withUsers((users) => users.countDocuments({ email }))).toBe(0);
  });

  it('refuses a common password such as password1, naming the field, and stores nothing', async () => {
    const email = uniqueEmail();
    const res = await authApi('POST', '/api/auth/register', { body: { email, password: 'password1' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('This password is too common. Please choose another.');
    expect(res.body.details).toEqual([
      { field: 'password', message: 'This password is too common. Please choose another.' },
    ]);
    expect(await withUsers((users) => users.countDocuments({ email }))).toBe(0);
  });

  it.each([
    ['a malformed email', { email: 'not-an-email', password: PASSWORD }],
    ['an email over 254 characters', { email: `${'a'.repeat(250)}@example.test`, password: PASSWORD }],
    ['a missing password', { email: 'someone@example.test' }],
    ['a password over 200 characters', { email: 'someone@example.test', password: 'x'.repeat(201) }],
    ['an operator object instead of an email', { email: { $ne: null }, password: PASSWORD }],
    ['a number instead of a password', { email: 'someone@example.test', password: 12345678 }],
    ['an unknown field', { email: 'someone@example.test', password: PASSWORD, role: 'admin' }],
  ])('when the body has %s, it answers 400 naming the problem', async (_what, body) => {
    const res = await authApi('POST', '/api/auth/register', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
  });

  it('when the email passes a browser check but not ours (a@b), it answers 400 with a sentence', async () => {
    const res = await authApi('POST', '/api/auth/register', { body: { email: 'a@b', password: PASSWORD } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Please enter a valid email address, such as name@example.com.');
    expect(res.body.details).toEqual([{ field: 'email', message: res.body.error }]);
  });

  it('when the body is not JSON, it answers 400', async () => {
    const res = await authApi('POST', '/api/auth/register', {
      raw: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });
});

describe('registration limits', () => {
  it('from one client address, registrations past 20 in an hour answer 429 with Retry-After; another address may still register', async () => {
    const from = freshClientAddress();
    const attempts = await Promise.all(
      Array.from({ length: 21 }, () =>
        authApi('POST', '/api/auth/register', { body: { email: uniqueEmail('burst'), password: PASSWORD }, from }),
      ),
    );
    const statuses = attempts.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    const refused = attempts.find((r) => r.status === 429);
    expect(refused?.body.error).toMatch(/too many requests/i);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await authApi('POST', '/api/auth/register', {
      body: { email: uniqueEmail(), password: PASSWORD },
      from: freshClientAddress(),
    });
    expect(other.status).toBe(201);
  });

  it('for one email address, attempts past 5 in an hour answer 429 whatever the client address', async () => {
    const email = uniqueEmail('target');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await authApi('POST', '/api/auth/register', {
        body: { email, password: PASSWORD },
        from: freshClientAddress(),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409, 429]);
  });
});
