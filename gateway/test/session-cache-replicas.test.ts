import { type ServiceApp, hashToken } from '@homereport/kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSupport, session } from '../../services/requests/test/support.js';
import { api, eventually } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { replicaGateway } from './support/replica.js';

/*
 * Decision 012: each gateway keeps resolved sessions for a few seconds and drops one when the auth
 * service announces its end. Here a second gateway (built in this process, on the same Redis and
 * services) plays the other replica; sessions end through the stack's gateway.
 *
 * An announcement reaches the replica after the sign-out is answered. So as not to assert on
 * timing, each check then ends a sentinel session the replica also keeps (deleted in Redis, its end
 * announced) and waits until the replica refuses it: a subscriber gets its messages in order, so by
 * then the replica has heard of the first end too, and a session it still accepted would be one
 * kept past its end.
 */

let replica: ServiceApp;
let redis: Redis;

beforeAll(async () => {
  // Kept for as long as a test runs: only the announcement can make the replica refuse them.
  replica = await replicaGateway({ SESSION_KEEP_MS: '60000' });
  redis = new Redis(testEnv().redisUrl);
});
afterAll(async () => {
  await replica?.close();
  await redis?.quit();
  await closeSupport();
});

/** A call that needs a signed-in caller and nothing else: the gateway's answer to the token. */
const meOnReplica = async (token: string) =>
  (await replica.inject({ method: 'GET', url: '/api/users/stats', headers: { authorization: `Bearer ${token}` } }))
    .statusCode;

/** Waits until the replica keeps `token`'s session: it answers after the session is gone from Redis. */
async function keptByReplica(token: string): Promise<void> {
  await eventually(async () => (await meOnReplica(token)) === 200, 10_000, 'the replica to accept the session');
  const raw = await redis.get(`session:${hashToken(token)}`);
  await redis.del(`session:${hashToken(token)}`);
  await eventually(
    async () => {
      const kept = (await meOnReplica(token)) === 200;
      // Not kept yet (the replica was not subscribed when it looked it up): put it back, try again.
      if (!kept && raw) await redis.set(`session:${hashToken(token)}`, raw);
      if (!kept) await meOnReplica(token);
      return kept;
    },
    10_000,
    'the replica to keep the session',
  );
  if (raw) await redis.set(`session:${hashToken(token)}`, raw, 'PX', 3_600_000);
}

/** Ends a sentinel session the replica keeps and waits until the replica has heard of its end. */
async function replicaHeardEverythingSoFar(): Promise<void> {
  const sentinel = await session('user');
  await keptByReplica(sentinel.token);
  const hash = hashToken(sentinel.token);
  await redis.multi().del(`session:${hash}`).publish('session-ended', hash).exec();
  await eventually(async () => (await meOnReplica(sentinel.token)) === 401, 10_000, 'the replica to drop the sentinel');
}

describe('sessions kept by a second gateway', () => {
  it('are refused there once signed out through the first, without waiting for them to age out', async () => {
    const user = await session('user');
    await keptByReplica(user.token);
    const out = await api('POST', '/api/auth/logout', { token: user.token });
    expect(out.status).toBe(204);
    // The gateway that forwarded the sign-out refuses the token at once.
    expect((await api('GET', '/api/users/stats', { token: user.token })).status).toBe(401);
    await replicaHeardEverythingSoFar();
    expect(await meOnReplica(user.token)).toBe(401);
  });

  it('are refused there once every session of the user is ended (password change elsewhere)', async () => {
    const user = await session('user');
    await keptByReplica(user.token);
    // What a password reset or role change does: the auth service's store ends them all.
    const { SessionStore } = await import('@homereport/kit');
    await new SessionStore(redis).revokeAll(user.userId);
    await replicaHeardEverythingSoFar();
    expect(await meOnReplica(user.token)).toBe(401);
  });
});
