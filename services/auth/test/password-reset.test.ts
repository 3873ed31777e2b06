import { Topics } from '@homereport/contracts';
import { hashToken } from '@homereport/kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { type Account, authApi, changeStoredUser, signIn, verifiedAccount, withUsers } from './support/accounts.js';
import { authEvents, openToken } from './support/events.js';

const tap = authEvents();
beforeAll(() => tap.start());
afterAll(() => tap.stop());

const NEW_PASSWORD = 'a brand new secret';
const forgot = (email: string) => authApi('POST', '/api/auth/forgot-password', { body: { email } });
const reset = (token: string, password = NEW_PASSWORD) =>
  authApi('POST', '/api/auth/reset-password', { body: { token, password } });
const me = (token: string) => authApi('GET', '/api/auth/me', { token });

/** Asks for a reset and returns the token sealed in the published password-reset-requested event. */
async function resetToken(account: Account, nth = 1): Promise<string> {
  expect((await forgot(account.email)).status).toBe(200);
  const event = await tap.waitFor<{ userId: string; email: string; sealedResetToken: string }>(
    Topics.passwordResetRequested,
    (d) => d.email === account.email,
    nth,
  );
  expect(event.envelope.data.userId).toBe(account.userId);
  expect(event.key).toBe(account.userId);
  expect(Object.keys(event.envelope.data).sort()).toEqual(['email', 'sealedResetToken', 'userId']);
  const token = openToken(event.envelope.data.sealedResetToken, 'password-reset', account.userId);
  expect(JSON.stringify(event.envelope)).not.toContain(token);
  return token;
}

describe('POST /api/auth/forgot-password', () => {
  it('answers the same 200 for an unknown and a known address, and publishes a reset link only for the known one', async () => {
    const account = await verifiedAccount(tap);
    const unknown = uniqueEmail('nobody');
    const forUnknown = await forgot(unknown);
    const forKnown = await forgot(account.email.toUpperCase());
    expect(forUnknown.status).toBe(200);
    expect(forKnown.status).toBe(200);
    expect(forUnknown.body).toEqual(forKnown.body);
    const known = await tap.waitFor(Topics.passwordResetRequested, (d) => d.email === account.email);
    // The known address's event, asked for after the unknown one, is a sentinel on its partition;
    // later resets of other accounts stand for the other partitions. An event for the unknown
    // address, on whichever partition, would be in the tap by now.
    const others = (await tap.partitions(Topics.passwordResetRequested)).filter((p) => p !== known.partition);
    if (others.length > 0)
      await tap.sentinels(
        Topics.passwordResetRequested,
        async () => {
          const other = await verifiedAccount(tap);
          expect((await forgot(other.email)).status).toBe(200);
          return (d) => d.email === other.email;
        },
        others,
      );
    expect(tap.all(Topics.passwordResetRequested, (d) => d.email === unknown)).toHaveLength(0);
  });

  it('asking again within the cool-down answers 429 saying when to try again, alike for a known and an unknown address', async () => {
    const account = await verifiedAccount(tap);
    const unknown = uniqueEmail('nobody');
    expect((await forgot(account.email)).status).toBe(200);
    expect((await forgot(unknown)).status).toBe(200);
    const again = await forgot(account.email);
    const againUnknown = await forgot(unknown);
    expect(again.status).toBe(429);
    expect(againUnknown.status).toBe(429);
    expect(again.body.error).toMatch(
      /^You asked for a password reset link for this address a moment ago\. If an account exists for it, that email is on its way; you can ask again in \d+ (seconds?|minutes?)\.$/,
    );
    const withoutWait = (message: string) => message.replace(/\d+ (seconds?|minutes?)/, 'a while');
    expect(withoutWait(againUnknown.body.error)).toBe(withoutWait(again.body.error));
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    await tap.waitFor(Topics.passwordResetRequested, (d) => d.email === account.email);
  });

  it('stores only the hash of the reset token, expiring in an hour', async () => {
    const account = await verifiedAccount(tap);
    const token = await resetToken(account);
    const stored = await withUsers((users) => users.findOne({ email: account.email }));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored?.reset.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const minutesLeft = (stored?.reset.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(59);
    expect(minutesLeft).toBeLessThanOrEqual(60);
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password: the old one stops working and the new one signs in', async () => {
    const account = await verifiedAccount(tap);
    const res = await reset(await resetToken(account));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect(
      (await authApi('POST', '/api/auth/login', { body: { email: account.email, password: account.password } })).status,
    ).toBe(401);
    await signIn({ email: account.email, password: NEW_PASSWORD });
  });

  it('a reset token works once', async () => {
    const account = await verifiedAccount(tap);
    const token = await resetToken(account);
    expect((await reset(token)).status).toBe(200);
    const again = await reset(token, 'yet another secret');
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/invalid or has expired/);
    await signIn({ email: account.email, password: NEW_PASSWORD });
  });

  it('when one token is used twice at once, exactly one reset succeeds', async () => {
    const account = await verifiedAccount(tap);
    const token = await resetToken(account);
    const results = await Promise.all([reset(token, 'first new secret'), reset(token, 'second new secret')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results[0]?.status === 200 ? 'first new secret' : 'second new secret';
    await signIn({ email: account.email, password: winner });
  });

  it('after a reset, every earlier session of that user answers 401 at GET /api/auth/me', async () => {
    const account = await verifiedAccount(tap);
    const earlier = [await signIn(account), await signIn(account)];
    for (const token of earlier) expect((await me(token)).status).toBe(200);
    expect((await reset(await resetToken(account))).status).toBe(200);
    for (const token of earlier) expect((await me(token)).status).toBe(401);
    const fresh = await signIn({ email: account.email, password: NEW_PASSWORD });
    expect((await me(fresh)).status).toBe(200);
  });

  it('ends a session that outlived the 7-day idle expiry of the first sign-in (weekly use, set and session aged)', async () => {
    const account = await verifiedAccount(tap);
    const token = await signIn(account);
    const redis = new Redis(testEnv().redisUrl);
    const DAY = 24 * 60 * 60 * 1000;
    // Ages every key of this user's sessions by `ms`, as if that much time had passed.
    const age = async (ms: number) => {
      for (const key of [`session:${hashToken(token)}`, `user-sessions:${account.userId}`]) {
        const left = await redis.pttl(key);
        if (left === -1) continue;
        if (left <= ms) await redis.del(key);
        else await redis.pexpire(key, left - ms);
      }
    };
    try {
      // Used once a week for three weeks: each use slides the session's idle expiry.
      for (let week = 0; week < 3; week++) {
        await age(6 * DAY);
        expect((await me(token)).status).toBe(200);
      }
      expect(await redis.exists(`user-sessions:${account.userId}`)).toBe(1);
      expect((await reset(await resetToken(account))).status).toBe(200);
      expect((await me(token)).status).toBe(401);
    } finally {
      await redis.quit();
    }
  });

  it('a weak password answers 400 and leaves the token usable', async () => {
    const account = await verifiedAccount(tap);
    const token = await resetToken(account);
    const weak = await reset(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.error).toBe('Password must be at least 8 characters long.');
    expect((await reset(token)).status).toBe(200);
  });

  it('a common password (password1) answers 400 saying so and leaves the token usable', async () => {
    const account = await verifiedAccount(tap);
    const token = await resetToken(account);
    const common = await reset(token, 'Password1');
    expect(common.status).toBe(400);
    expect(common.body.error).toBe('This password is too common. Please choose another.');
    expect((await reset(token)).status).toBe(200);
  });

  it('an unknown, expired or non-string token answers 400', async () => {
    expect((await reset('not-a-real-token')).status).toBe(400);
    const account = await verifiedAccount(tap);
    const token = await resetToken(account);
    await changeStoredUser(account.email, { $set: { 'reset.expiresAt': new Date(Date.now() - 1000) } });
    expect((await reset(token)).status).toBe(400);
    await signIn(account);
    const odd = await authApi('POST', '/api/auth/reset-password', {
      body: { token: { $ne: null }, password: NEW_PASSWORD },
    });
    expect(odd.status).toBe(400);
  });
});
