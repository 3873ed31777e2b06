import { createHash, randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClientAddress, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { PASSWORD, authApi, register, verifiedAccount } from './support/accounts.js';
import { authEvents } from './support/events.js';

const tap = authEvents();
beforeAll(() => tap.start());
afterAll(() => tap.stop());

/** A documentation-range address (RFC 3849) that no other test uses. */
const testAddress = () => `2001:db8::${randomInt(0, 0xffff).toString(16)}:${randomInt(0, 0xffff).toString(16)}`;

/**
 * One machine cannot send from many addresses through the gateway, so limits per address are
 * tested by speaking to the auth service as the gateway does: with the internal secret and
 * the client's address appended to x-forwarded-for.
 */
const asGateway = (email: string, password: string, from: string) => {
  const env = testEnv();
  return fetch(`http://127.0.0.1:${env.servicePorts.auth}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-secret': env.internalSecret, 'x-forwarded-for': from },
    body: JSON.stringify({ email, password }),
  });
};

const login = (email: string, password: string, headers?: Record<string, string>, from?: string) =>
  authApi('POST', '/api/auth/login', { body: { email, password }, headers, from });

describe('POST /api/auth/login', () => {
  it('with the right password, answers 200 with a token and the user, and nothing else about them', async () => {
    const account = await verifiedAccount(tap);
    const res = await login(account.email, account.password);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['token', 'user']);
    expect(res.body.token).toMatch(/^[\w-]{40,}$/);
    expect(res.body.user).toEqual({
      id: account.userId,
      email: account.email,
      role: 'user',
      emailVerified: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });
  });

  it('accepts the email in any letter case', async () => {
    const account = await verifiedAccount(tap);
    expect((await login(account.email.toUpperCase(), account.password)).status).toBe(200);
  });

  it('answers 401 with one message for an unknown email and for a wrong password', async () => {
    const account = await verifiedAccount(tap);
    const unknown = await login(uniqueEmail('nobody'), PASSWORD);
    const wrong = await login(account.email, 'not the password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body.error).toBe('Invalid email or password.');
    expect(wrong.body).toEqual(unknown.body);
  });

  it('refuses a wrong password for an unverified account with 401, not the 403 that would confirm the account', async () => {
    const { email } = await register(tap);
    expect((await login(email, 'not the password')).status).toBe(401);
  });

  it.each([
    ['an operator object as the email', { email: { $ne: null }, password: PASSWORD }],
    ['an operator object as the password', { email: 'someone@example.test', password: { $ne: null } }],
    ['an empty password', { email: 'someone@example.test', password: '' }],
    ['no body fields', {}],
  ])('answers 400 for %s', async (_what, body) => {
    const res = await authApi('POST', '/api/auth/login', { body });
    expect(res.status).toBe(400);
  });
});

describe('failed sign-in limits', () => {
  it('after 5 failures for one account, further tries get 429 with Retry-After, even with the right password', async () => {
    const account = await verifiedAccount(tap);
    for (let i = 0; i < 5; i++) expect((await login(account.email, `wrong password ${i}`)).status).toBe(401);

    const blocked = await login(account.email, 'wrong password again');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect(blocked.body.error).toMatch(/too many/i);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    expect((await login(account.email, account.password)).status).toBe(429);
    expect((await login(account.email.toUpperCase(), account.password)).status).toBe(429);
    const other = await verifiedAccount(tap);
    expect((await login(other.email, other.password)).status).toBe(200);
  });

  it('20 wrong passwords sent at once for one account are checked at most 5 times; the rest answer 429', async () => {
    const account = await verifiedAccount(tap);
    const from = freshClientAddress();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(account.email, `wrong password ${i}`, undefined, from)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect((await login(account.email, account.password, undefined, from)).status).toBe(429);
  });

  it('failing on purpose from one address does not lock the account owner out from theirs', async () => {
    const account = await verifiedAccount(tap);
    const attacker = freshClientAddress();
    for (let i = 0; i < 6; i++) await login(account.email, `wrong password ${i}`, undefined, attacker);
    expect((await login(account.email, account.password, undefined, attacker)).status).toBe(429);
    expect((await login(account.email, account.password, undefined, freshClientAddress())).status).toBe(200);
  });

  it('a successful sign-in clears the failures of that account', async () => {
    // Sent as from its own address, so these failures do not count against the tests' shared one.
    const from = testAddress();
    const account = await verifiedAccount(tap);
    for (let i = 0; i < 4; i++) expect((await asGateway(account.email, 'wrong password', from)).status).toBe(401);
    expect((await asGateway(account.email, account.password, from)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await asGateway(account.email, 'wrong password', from)).status).toBe(401);
    expect((await asGateway(account.email, account.password, from)).status).toBe(200);
  });

  it('after 20 failures from one client address, that address gets 429 for any account; others do not', async () => {
    const address = testAddress();
    for (let i = 0; i < 20; i++)
      expect((await asGateway(uniqueEmail('spray'), 'wrong password', address)).status).toBe(401);

    const account = await verifiedAccount(tap);
    const blocked = await asGateway(account.email, account.password, address);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await asGateway(account.email, account.password, testAddress())).status).toBe(200);

    // Through the gateway a client cannot claim that address: the gateway's own entry is the one believed.
    expect((await login(account.email, account.password, { 'x-forwarded-for': address })).status).toBe(200);
  });
});

describe('the per-account ceiling across client addresses', () => {
  const redis = new Redis(testEnv().redisUrl);
  afterAll(() => redis.quit());
  const key = (email: string) =>
    `auth:limit:signin-slowdown:${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;
  /** Stands in for the wait having passed: the account's next slot is now (its count stays). */
  const slotReached = (email: string) => redis.hset(key(email), 'n', '0');
  const burst = (email: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) => login(email, `wrong password ${i}`, undefined, freshClientAddress())),
    );

  it('failed sign-ins from 20 addresses on one account slow down, with a growing Retry-After; the owner is not locked out', async () => {
    const account = await verifiedAccount(tap);
    // LOGIN_SLOWDOWN_AFTER is 10: ten addresses, one wrong password each, are all checked.
    for (let i = 0; i < 10; i++) {
      expect((await login(account.email, `wrong password ${i}`, undefined, freshClientAddress())).status).toBe(401);
    }
    // Past it, of five addresses trying together only one is checked; the others wait (5 s, doubling).
    const first = await burst(account.email, 5);
    expect(first.map((r) => r.status).sort()).toEqual([401, 429, 429, 429, 429]);
    const firstWaits = first.filter((r) => r.status === 429).map((r) => Number(r.headers.get('retry-after')));
    for (const wait of firstWaits) expect(wait).toBeGreaterThanOrEqual(1);
    for (const wait of firstWaits) expect(wait).toBeLessThanOrEqual(5);
    expect(first.find((r) => r.status === 429)?.body.error).toMatch(/Too many failed sign-in attempts/);

    await slotReached(account.email);
    const second = await burst(account.email, 5);
    expect(second.map((r) => r.status).sort()).toEqual([401, 429, 429, 429, 429]);
    const secondWaits = second.filter((r) => r.status === 429).map((r) => Number(r.headers.get('retry-after')));
    for (const wait of secondWaits) expect(wait).toBeGreaterThan(5);
    for (const wait of secondWaits) expect(wait).toBeLessThanOrEqual(10);

    // Meanwhile the right password waits too, from any address...
    expect((await login(account.email, account.password, undefined, freshClientAddress())).status).toBe(429);
    // ...until the slot comes: the owner signs in from a new address, and the count is forgotten.
    await slotReached(account.email);
    expect((await login(account.email, account.password, undefined, freshClientAddress())).status).toBe(200);
    expect(await redis.exists(key(account.email))).toBe(0);
    expect((await login(account.email, 'wrong password', undefined, freshClientAddress())).status).toBe(401);
  });
});

describe('POST /api/auth/admin-login', () => {
  it('answers 403 for a verified user who is not an admin', async () => {
    const account = await verifiedAccount(tap);
    const res = await authApi('POST', '/api/auth/admin-login', {
      body: { email: account.email, password: account.password },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/admin/i);
  });

  it('answers 401 for a wrong password or an unknown email', async () => {
    const account = await verifiedAccount(tap);
    const wrong = await authApi('POST', '/api/auth/admin-login', {
      body: { email: account.email, password: 'not it!!' },
    });
    const unknown = await authApi('POST', '/api/auth/admin-login', {
      body: { email: uniqueEmail(), password: PASSWORD },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error).toBe('Invalid email or password.');
  });
});
