import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { SessionStore, hashToken } from '../src/index.js';

const redis = new Redis(testEnv().redisUrl);
afterAll(() => redis.quit());

const DAY = 24 * 60 * 60 * 1000;

describe('sessions', () => {
  it('end 30 days after sign-in however often they are used', async () => {
    let now = Date.now();
    const sessions = new SessionStore(redis, {}, () => now);
    const user = { userId: `u-${randomUUID()}`, email: 'a@example.test', role: 'user' as const };
    const token = await sessions.create(user);
    for (let day = 6; day < 30; day += 6) {
      now += 6 * DAY;
      expect(await sessions.resolve(token)).toMatchObject(user);
    }
    now = Date.now() + 30 * DAY + 1000;
    expect(await sessions.resolve(token)).toBeNull();
    expect(await redis.exists(`session:${hashToken(token)}`)).toBe(0);
  });

  it('slide their idle expiry on use, never past the absolute end', async () => {
    let now = Date.now();
    const sessions = new SessionStore(
      redis,
      { idleSeconds: 7 * 24 * 3600, absoluteSeconds: 30 * 24 * 3600 },
      () => now,
    );
    const token = await sessions.create({ userId: `u-${randomUUID()}`, email: 'b@example.test', role: 'user' });
    now += 29 * DAY;
    await sessions.resolve(token);
    const left = await redis.pttl(`session:${hashToken(token)}`);
    expect(left).toBeGreaterThan(DAY - 60_000);
    expect(left).toBeLessThanOrEqual(DAY);
  });

  it('slide by their own idle limit in one command, also on a Redis that has not seen the script', async () => {
    const sessions = new SessionStore(redis, { idleSeconds: 7 * 24 * 3600 });
    const token = await sessions.create(
      { userId: `u-${randomUUID()}`, email: 'g@example.test', role: 'admin' },
      { idleSeconds: 1800 },
    );
    const key = `session:${hashToken(token)}`;
    for (const flushed of [true, false]) {
      if (flushed) await redis.script('FLUSH');
      await redis.pexpire(key, 60_000);
      expect(await sessions.resolve(token)).toMatchObject({ role: 'admin' });
      const left = await redis.pttl(key);
      expect(left).toBeGreaterThan(1800_000 - 60_000);
      expect(left).toBeLessThanOrEqual(1800_000);
    }
  });

  it('keep the per-user set alive as long as the newest session could live', async () => {
    const sessions = new SessionStore(redis);
    const userId = `u-${randomUUID()}`;
    await sessions.create({ userId, email: 'c@example.test', role: 'user' });
    const ttl = await redis.ttl(`user-sessions:${userId}`);
    expect(ttl).toBeGreaterThan(30 * 24 * 3600 - 60);
    await redis.expire(`user-sessions:${userId}`, 10);
    await sessions.create({ userId, email: 'c@example.test', role: 'user' });
    expect(await redis.ttl(`user-sessions:${userId}`)).toBeGreaterThan(30 * 24 * 3600 - 60);
    expect(await sessions.revokeAll(userId)).toBe(2);
  });

  it('revokeOthers ends every session of the user but the one kept', async () => {
    const sessions = new SessionStore(redis);
    const user = { userId: `u-${randomUUID()}`, email: 'd@example.test', role: 'user' as const };
    const kept = await sessions.create(user);
    const others = [await sessions.create(user), await sessions.create(user)];
    const stranger = await sessions.create({ ...user, userId: `u-${randomUUID()}` });
    expect(await sessions.revokeOthers(user.userId, kept)).toBe(2);
    expect(await sessions.resolve(kept)).toMatchObject(user);
    for (const token of others) expect(await sessions.resolve(token)).toBeNull();
    expect(await sessions.resolve(stranger)).not.toBeNull();
    expect(await redis.smembers(`user-sessions:${user.userId}`)).toEqual([hashToken(kept)]);
  });

  it('with lifetimes of their own (admins): a store without them (the gateway’s) keeps to them', async () => {
    let now = Date.now();
    const auth = new SessionStore(redis, {}, () => now);
    const gateway = new SessionStore(redis, {}, () => now);
    const admin = { userId: `u-${randomUUID()}`, email: 'e@example.test', role: 'admin' as const };
    const token = await auth.create(admin, { idleSeconds: 30 * 60, absoluteSeconds: 12 * 3600 });
    const key = `session:${hashToken(token)}`;
    expect(await redis.pttl(key)).toBeLessThanOrEqual(30 * 60 * 1000);
    // Used every 25 minutes it lives on, its idle expiry sliding by 30 minutes, not 7 days...
    for (let minutes = 25; minutes < 12 * 60; minutes += 25) {
      now += 25 * 60 * 1000;
      expect(await gateway.resolve(token), `after ${minutes} minutes`).toMatchObject(admin);
      expect(await redis.pttl(key)).toBeLessThanOrEqual(30 * 60 * 1000);
    }
    // ...until 12 hours after sign-in, however often it is used.
    now += 25 * 60 * 1000;
    expect(await gateway.resolve(token)).toBeNull();
    expect(await redis.exists(key)).toBe(0);
  });

  it('revoke says whether the token named a live session', async () => {
    const sessions = new SessionStore(redis);
    const token = await sessions.create({ userId: `u-${randomUUID()}`, email: 'f@example.test', role: 'user' });
    expect(await sessions.revoke(token)).toBe(true);
    expect(await sessions.revoke(token)).toBe(false);
    expect(await sessions.revoke('no-such-token')).toBe(false);
  });
});
