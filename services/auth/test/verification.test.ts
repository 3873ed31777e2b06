import { Topics } from '@homereport/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/support/api.js';
import { authApi, changeStoredUser, register, signIn, verifiedAccount, withUsers } from './support/accounts.js';
import { authEvents, tokenOf } from './support/events.js';

const tap = authEvents();
beforeAll(() => tap.start());
afterAll(() => tap.stop());

const verify = (token: string) => authApi('POST', '/api/auth/verify-email', { body: { token } });
const login = (email: string, password: string) => authApi('POST', '/api/auth/login', { body: { email, password } });

describe('email verification', () => {
  it('before verifying, sign-in with the right password is refused with 403 EMAIL_NOT_VERIFIED and a hint to resend', async () => {
    const { email, password } = await register(tap);
    const res = await login(email, password);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('EMAIL_NOT_VERIFIED');
    expect(res.body.error).toMatch(/verify/i);
    expect(res.body.error).toMatch(/new one|resend/i);
  });

  it('after verifying with the emailed token, sign-in answers 200 and user-verified is published', async () => {
    const { email, password, userId, verifyToken } = await register(tap);
    const res = await verify(verifyToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    const token = await signIn({ email, password });
    expect(token).toEqual(expect.any(String));
    const event = await tap.waitFor<{ userId: string }>(Topics.userVerified, (d) => d.userId === userId);
    expect(event.envelope.source).toBe('auth');
  });

  it('a verification token works once', async () => {
    const { verifyToken } = await register(tap);
    expect((await verify(verifyToken)).status).toBe(200);
    const again = await verify(verifyToken);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/invalid or has expired/);
  });

  it('an unknown token answers 400', async () => {
    expect((await verify('no-such-token')).status).toBe(400);
  });

  it('an expired token answers 400 and leaves the account unverified', async () => {
    const { email, verifyToken } = await register(tap);
    await changeStoredUser(email, { $set: { 'verification.expiresAt': new Date(Date.now() - 1000) } });
    expect((await verify(verifyToken)).status).toBe(400);
    expect(await withUsers((users) => users.findOne({ email }))).toMatchObject({ emailVerified: false });
  });

  it('a token that is not a string answers 400', async () => {
    const res = await authApi('POST', '/api/auth/verify-email', { body: { token: { $gt: '' } } });
    expect(res.status).toBe(400);
  });
});

describe('POST /api/auth/resend-verification', () => {
  it('for an unverified account, publishes a new link whose token works, and the old token stops working', async () => {
    const { email, verifyToken: first } = await register(tap);
    const res = await authApi('POST', '/api/auth/resend-verification', { body: { email: email.toUpperCase() } });
    expect(res.status).toBe(200);
    const event = await tap.waitFor<{ email: string; verifyUrl: string }>(
      Topics.userRegistered,
      (d) => d.email === email,
      2,
    );
    const second = tokenOf(event.envelope.data.verifyUrl);
    expect(second).not.toBe(first);
    expect((await verify(first)).status).toBe(400);
    expect((await verify(second)).status).toBe(200);
  });

  it('answers the same 200 for an unknown address and a verified account, and sends nothing for them', async () => {
    const unknown = uniqueEmail('nobody');
    const account = await verifiedAccount(tap);
    const unverified = await register(tap);
    const forUnknown = await authApi('POST', '/api/auth/resend-verification', { body: { email: unknown } });
    const forVerified = await authApi('POST', '/api/auth/resend-verification', { body: { email: account.email } });
    const forUnverified = await authApi('POST', '/api/auth/resend-verification', { body: { email: unverified.email } });
    expect(forUnknown.status).toBe(200);
    expect(forVerified.status).toBe(200);
    expect(forUnknown.body).toEqual(forVerified.body);
    expect(forUnverified.body).toEqual(forVerified.body);
    // The unverified account's new link is published; the other two got none in that time.
    await tap.waitFor(Topics.userRegistered, (d) => d.email === unverified.email, 2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(tap.all(Topics.userRegistered, (d) => d.email === unknown)).toHaveLength(0);
    expect(tap.all(Topics.userRegistered, (d) => d.email === account.email)).toHaveLength(1);
  });

  it('asking twice in a row sends one new link (a form cannot flood an inbox)', async () => {
    const { email } = await register(tap);
    for (let i = 0; i < 3; i++) {
      expect((await authApi('POST', '/api/auth/resend-verification', { body: { email } })).status).toBe(200);
    }
    await tap.waitFor(Topics.userRegistered, (d) => d.email === email, 2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(tap.all(Topics.userRegistered, (d) => d.email === email)).toHaveLength(2);
  });

  it('a malformed or non-string email answers 400', async () => {
    expect((await authApi('POST', '/api/auth/resend-verification', { body: { email: 'nope' } })).status).toBe(400);
    expect((await authApi('POST', '/api/auth/resend-verification', { body: { email: ['a@b.test'] } })).status).toBe(
      400,
    );
  });
});
