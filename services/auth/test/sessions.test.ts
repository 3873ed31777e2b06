import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authApi, signIn, verifiedAccount } from './support/accounts.js';
import { authEvents } from './support/events.js';

const tap = authEvents();
beforeAll(() => tap.start());
afterAll(() => tap.stop());

const me = (token?: string) => authApi('GET', '/api/auth/me', { token });

describe('GET /api/auth/me', () => {
  it('with a session token, answers 200 with the signed-in user', async () => {
    const account = await verifiedAccount(tap);
    const res = await me(await signIn(account));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: {
        id: account.userId,
        email: account.email,
        role: 'user',
        emailVerified: true,
        created_at: expect.any(String),
      },
    });
  });

  it('without a token, or with one that was never issued, answers 401', async () => {
    expect((await me()).status).toBe(401);
    const forged = await me('x'.repeat(43));
    expect(forged.status).toBe(401);
    expect(forged.body.error).toEqual(expect.any(String));
  });

  it('ignores identity headers a client sends itself', async () => {
    const account = await verifiedAccount(tap);
    const res = await authApi('GET', '/api/auth/me', {
      headers: { 'x-user-id': account.userId, 'x-user-email': account.email, 'x-user-role': 'admin' },
    });
    expect(res.status).toBe(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('answers 204, and afterwards that token is 401 while the user’s other sessions keep working', async () => {
    const account = await verifiedAccount(tap);
    const first = await signIn(account);
    const second = await signIn(account);
    const res = await authApi('POST', '/api/auth/logout', { token: first });
    expect(res.status).toBe(204);
    expect((await me(first)).status).toBe(401);
    expect((await me(second)).status).toBe(200);
  });

  it('logging out twice with the same token: the second answers 401, the session being gone', async () => {
    const token = await signIn(await verifiedAccount(tap));
    expect((await authApi('POST', '/api/auth/logout', { token })).status).toBe(204);
    expect((await authApi('POST', '/api/auth/logout', { token })).status).toBe(401);
  });

  it('with a token that names no session, answers 401', async () => {
    const res = await authApi('POST', '/api/auth/logout', { token: 'x'.repeat(43) });
    expect(res.status).toBe(401);
  });

  it('without a token, answers 401', async () => {
    expect((await authApi('POST', '/api/auth/logout')).status).toBe(401);
  });
});
