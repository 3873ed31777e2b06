import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, uniqueEmail } from '../../../test/support/api.js';
import { linkIn, tokenOf, waitForEmail } from '../../../test/support/mail.js';
import { type TestUser, adminSession, closeSupport } from './support.js';

let admin: TestUser;
beforeAll(async () => {
  admin = await adminSession();
});
afterAll(closeSupport);

describe('user counters of the admin dashboard (from auth events)', () => {
  const stats = async () => (await api('GET', '/api/admin/dashboard', { token: admin.token })).body.stats;

  it('count a registration in totalUsers and its verification in verifiedUsers, once each', async () => {
    const before = await stats();
    const email = uniqueEmail('counted');
    expect((await api('POST', '/api/auth/register', { body: { email, password: 'correct horse 1' } })).status).toBe(
      201,
    );
    await eventually(async () => (await stats()).totalUsers === before.totalUsers + 1, 20_000, 'totalUsers + 1');
    expect((await stats()).verifiedUsers).toBe(before.verifiedUsers);

    const mail = await waitForEmail(email, /verify/i);
    const token = tokenOf(linkIn(mail, '/verify-email'));
    expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    await eventually(async () => (await stats()).verifiedUsers === before.verifiedUsers + 1, 20_000, 'verified + 1');

    // Asking for another verification email or signing in changes no counter.
    await api('POST', '/api/auth/resend-verification', { body: { email } });
    await new Promise((r) => setTimeout(r, 1500));
    const after = await stats();
    expect(after.totalUsers).toBe(before.totalUsers + 1);
    expect(after.verifiedUsers).toBe(before.verifiedUsers + 1);
  });
});
