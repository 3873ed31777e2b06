import { Topics } from '@homereport/contracts';
import { MongoClient } from 'mongodb';
import { expect } from 'vitest';
import { type ApiResponse, api, uniqueEmail } from '../../../../test/support/api.js';
import { testEnv } from '../../../../test/support/env.js';
import type { EventTap } from '../../../../test/support/events.js';
import { openToken } from './events.js';

export const PASSWORD = 'correct horse 1';

/**
 * Calls the gateway and checks what no auth response may ever hold: a password (the one sent,
 * or any argon2 hash) or a field named like one.
 */
export async function authApi<T = any>(
  method: string,
  path: string,
  options: Parameters<typeof api>[2] = {},
): Promise<ApiResponse<T>> {
  const res = await api<T>(method, path, options);
  const text = JSON.stringify(res.body ?? '');
  expect(text).not.toContain('$argon2');
  expect(text.toLowerCase()).not.toContain('passwordhash');
  expect(text).not.toMatch(/"password"\s*:/);
  const sent = (options.body as { password?: unknown } | undefined)?.password;
  if (typeof sent === 'string' && sent.length >= 8) expect(text).not.toContain(sent);
  return res;
}

export interface Account {
  email: string;
  password: string;
  userId: string;
}

export async function register(tap: EventTap, email = uniqueEmail('auth'), password = PASSWORD) {
  const res = await authApi('POST', '/api/auth/register', { body: { email, password } });
  expect(res.status).toBe(201);
  const normalised = email.trim().toLowerCase();
  const event = await tap.waitFor<{ userId: string; email: string; sealedVerifyToken: string }>(
    Topics.userRegistered,
    (d) => d.email === normalised,
  );
  const { userId, sealedVerifyToken } = event.envelope.data;
  return { email: normalised, password, userId, verifyToken: openToken(sealedVerifyToken, 'verification', userId) };
}

/** A registered account whose email is verified, ready to sign in. */
export async function verifiedAccount(tap: EventTap, email?: string, password?: string): Promise<Account> {
  const { verifyToken, ...account } = await register(tap, email, password);
  const res = await authApi('POST', '/api/auth/verify-email', { body: { token: verifyToken } });
  expect(res.status).toBe(200);
  return account;
}

/**
 * Sentinels (EventTap.sentinels) for "no second event of this user": accounts registered, or
 * registered and verified, until one's event of `topic` was seen on `partition`, the partition
 * every event keyed by the user in question uses.
 */
export function userSentinels(
  tap: EventTap,
  topic: typeof Topics.userRegistered | typeof Topics.userVerified,
  partition: number,
) {
  return tap.sentinels<{ userId: string }>(
    topic,
    async () => {
      const other = topic === Topics.userVerified ? await verifiedAccount(tap) : await register(tap);
      return (d) => d.userId === other.userId;
    },
    [partition],
  );
}

export async function signIn(account: { email: string; password: string }, path = '/api/auth/login'): Promise<string> {
  const res = await authApi<{ token: string }>('POST', path, {
    body: { email: account.email, password: account.password },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

export { createAdmin } from '../../../../test/support/admin.js';

/** The auth service's own users collection, for checks on what was stored. */
export async function withUsers<T>(fn: (users: import('mongodb').Collection) => Promise<T>): Promise<T> {
  const client = new MongoClient(testEnv().mongoUrl);
  try {
    await client.connect();
    return await fn(client.db('homereport_auth').collection('users'));
  } finally {
    await client.close();
  }
}

/** Changes a stored user directly (to simulate an expired token). Single-document updates are atomic, so the relay's own writes cannot undo it. */
export async function changeStoredUser(
  email: string,
  update: import('mongodb').UpdateFilter<import('mongodb').Document>,
) {
  await withUsers((users) => users.updateOne({ email }, update));
}
