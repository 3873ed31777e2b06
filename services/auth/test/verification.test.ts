import { Topics } from '@homereport/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/support/api.js';
import {
  authApi,
  changeStoredUser,
  register,
  signIn,
  userSentinels,
  verifiedAccount,
  withUsers,
} from './support/accounts.js';
import { authEvents, openToken } from './support/events.js';

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
    expect(res.body).toEqual({ message: expect.any(String), alreadyVerified: false });
    const token = await signIn({ email, password });
    expect(token).toEqual(expect.any(String));
    const event = await tap.waitFor<{ userId: string }>(Topics.userVerified, (d) => d.userId === userId);
    expect(event.envelope.source).toBe('auth');
  });

  it('a link opened a second time says the address is already verified (and verifies nothing new)', async () => {
    const { verifyToken, userId } = await register(tap);
    expect((await verify(verifyToken)).status).toBe(200);
    const again = await verify(verifyToken);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      message: 'Your email address was already verified. You can sign in.',
      alreadyVerified: true,
    });
    const first = await tap.waitFor(Topics.userVerified, (d) => d.userId === userId);
    const second = await verify(verifyToken);
    expect(second.body.alreadyVerified).toBe(true);
    await userSentinels(tap, Topics.userVerified, first.partition);
    expect(tap.all(Topics.userVerified, (d) => d.userId === userId)).toHaveLength(1);
  });

  it('two clicks on one link at once: both are told the address is verified, one user-verified event', async () => {
    const { verifyToken, userId } = await register(tap);
    const [a, b] = await Promise.all([verify(verifyToken), verify(verifyToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.alreadyVerified, b.body.alreadyVerified].sort()).toEqual([false, true]);
    const first = await tap.waitFor(Topics.userVerified, (d) => d.userId === userId);
    await userSentinels(tap, Topics.userVerified, first.partition);
    expect(tap.all(Topics.userVerified, (d) => d.userId === userId)).toHaveLength(1);
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
  it('for an unverified account, publishes verification-resend-requested (not a second user-registered) with a new token that works; the old one stops working', async () => {
    const { email, userId, verifyToken: first } = await register(tap);
    const res = await authApi('POST', '/api/auth/resend-verification', { body: { email: email.toUpperCase() } });
    expect(res.status).toBe(200);
    const event = await tap.waitFor<{ email: string; userId: string; sealedVerifyToken: string }>(
      Topics.verificationResendRequested,
      (d) => d.email === email,
    );
    expect(event.key).toBe(userId);
    const second = openToken(event.envelope.data.sealedVerifyToken, 'verification', userId);
    expect(second).not.toBe(first);
    // A second user-registered would be keyed by the user too, so on the first one's partition.
    const [registered] = tap.all(Topics.userRegistered, (d) => d.email === email);
    await userSentinels(tap, Topics.userRegistered, registered?.partition ?? -1);
    expect(tap.all(Topics.userRegistered, (d) => d.email === email)).toHaveLength(1);
    expect((await verify(first)).status).toBe(400);
    expect((await verify(second)).status).toBe(200);
  });

  it('answers the same 200 for an unknown address and a verified account, and records nothing for them', async () => {
    const unknown = uniqueEmail('nobody');
    const account = await verifiedAccount(tap);
    const unverified = await register(tap);
    const before = await withUsers((users) => users.findOne({ email: account.email }));
    const forUnknown = await authApi('POST', '/api/auth/resend-verification', { body: { email: unknown } });
    const forVerified = await authApi('POST', '/api/auth/resend-verification', { body: { email: account.email } });
    const forUnverified = await authApi('POST', '/api/auth/resend-verification', { body: { email: unverified.email } });
    expect(forUnknown.status).toBe(200);
    expect(forVerified.status).toBe(200);
    expect(forUnknown.body).toEqual(forVerified.body);
    expect(forUnverified.body).toEqual(forVerified.body);
    // An event is only ever recorded with a new token in the same write: the answers came after
    // the writes, so an unchanged token (and no account for the unknown address) means no event.
    const after = await withUsers((users) => users.findOne({ email: account.email }));
    expect(after?.verification).toEqual(before?.verification);
    expect(await withUsers((users) => users.countDocuments({ email: unknown }))).toBe(0);
    await tap.waitFor(Topics.verificationResendRequested, (d) => d.email === unverified.email);
  });

  it('asking again within the cool-down answers 429 saying when to try again, the same for any address', async () => {
    const { email } = await register(tap);
    const unknown = uniqueEmail('nobody');
    expect((await authApi('POST', '/api/auth/resend-verification', { body: { email } })).status).toBe(200);
    expect((await authApi('POST', '/api/auth/resend-verification', { body: { email: unknown } })).status).toBe(200);
    const again = await authApi('POST', '/api/auth/resend-verification', { body: { email } });
    const againUnknown = await authApi('POST', '/api/auth/resend-verification', { body: { email: unknown } });
    expect(again.status).toBe(429);
    expect(again.body.error).toMatch(/^You asked for a verification link for this address a moment ago\./);
    expect(again.body.error).toMatch(/ask again in \d+ (seconds?|minutes?)\.$/);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(againUnknown.status).toBe(429);
    const withoutWait = (message: string) => message.replace(/\d+ (seconds?|minutes?)/, 'a while');
    expect(withoutWait(againUnknown.body.error)).toBe(withoutWait(again.body.error));
    await tap.waitFor(Topics.verificationResendRequested, (d) => d.email === email);
  });

  it('a malformed or non-string email answers 400', async () => {
    expect((await authApi('POST', '/api/auth/resend-verification', { body: { email: 'nope' } })).status).toBe(400);
    expect((await authApi('POST', '/api/auth/resend-verification', { body: { email: ['a@b.test'] } })).status).toBe(
      400,
    );
  });
});
