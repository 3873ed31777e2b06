import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { PASSWORD, authApi, createAdmin, signIn, verifiedAccount } from './support/accounts.js';
import { authEvents } from './support/events.js';
import { startSecondAuth } from './support/second-auth.js';

const tap = authEvents();
const redis = new Redis(testEnv().redisUrl);
beforeAll(() => tap.start());
afterAll(async () => {
  await tap.stop();
  await redis.quit();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const me = (token: string) => authApi('GET', '/api/auth/me', { token });

/** What Redis holds for a session token: its remaining idle time and its recorded ends. */
async function stored(token: string) {
  const key = `session:${createHash('sha256').update(token).digest('hex')}`;
  const raw = await redis.get(key);
  const session = JSON.parse(raw ?? '{}') as { createdAt: string; expiresAt: string };
  return {
    idleLeftMs: await redis.pttl(key),
    lifetimeMs: Date.parse(session.expiresAt) - Date.parse(session.createdAt),
  };
}

describe('admin sessions', () => {
  it('last at most 12 hours and 30 minutes idle; user sessions keep 7 days idle and 30 days', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const admin = await signIn({ email, password: PASSWORD }, '/api/auth/admin-login');
    expect((await me(admin)).status).toBe(200);
    const a = await stored(admin);
    expect(a.lifetimeMs).toBe(12 * HOUR);
    expect(a.idleLeftMs).toBeGreaterThan(29 * MINUTE);
    expect(a.idleLeftMs).toBeLessThanOrEqual(30 * MINUTE);

    // An admin signing in at the users' login gets the admin's short session all the same.
    const viaLogin = await signIn({ email, password: PASSWORD });
    expect((await me(viaLogin)).status).toBe(200);
    expect((await stored(viaLogin)).lifetimeMs).toBe(12 * HOUR);

    const user = await signIn(await verifiedAccount(tap));
    expect((await me(user)).status).toBe(200);
    const u = await stored(user);
    expect(u.lifetimeMs).toBe(30 * 24 * HOUR);
    expect(u.idleLeftMs).toBeGreaterThan(7 * 24 * HOUR - MINUTE);
  });
});

describe('admin sessions with ADMIN_SESSION_IDLE_MINUTES shortened to 6 seconds', () => {
  // A second auth service with the shortened setting, beside the stack's: its sessions live in the
  // same Redis, so the stack's gateway resolves them (the idle limit travels in the session).
  let auth: Awaited<ReturnType<typeof startSecondAuth>>;
  beforeAll(async () => {
    auth = await startSecondAuth({ ADMIN_SESSION_IDLE_MINUTES: '0.1' }, 90);
  }, 60_000);
  afterAll(() => auth?.stop());

  it('ends an admin session left unused that long; used, it goes on', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const adminLogin = async () => {
      const res = await auth.call('/api/auth/admin-login', { email, password: PASSWORD });
      expect(res.status).toBe(200);
      return ((await res.json()) as { token: string }).token;
    };
    const key = (token: string) => `session:${createHash('sha256').update(token).digest('hex')}`;

    // Redis ends a session when its idle expiry runs out: signed in, that expiry is the 6 s limit.
    const token = await adminLogin();
    const left = (await stored(token)).idleLeftMs;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(6000);
    // Redis's clock is moved by setting what is left instead of waiting: 1 s left, then used
    // through the gateway, the session goes on with its idle expiry slid back to its own 6 s.
    await redis.pexpire(key(token), 1000);
    expect((await me(token)).status).toBe(200);
    expect((await stored(token)).idleLeftMs).toBeGreaterThan(1000);
    expect((await stored(token)).idleLeftMs).toBeLessThanOrEqual(6000);
    // Another session of the admin left unused until its idle time ran out: the gateway no longer
    // knows the token (it never kept it: it is resolved here for the first time).
    const unused = await adminLogin();
    await redis.pexpire(key(unused), 0);
    expect((await me(unused)).status).toBe(401);
  });
});
