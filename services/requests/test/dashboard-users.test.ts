import { Topics } from '@homereport/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, uniqueEmail } from '../../../test/support/api.js';
import { EventTap } from '../../../test/support/events.js';
import { linkIn, tokenOf, waitForEmail } from '../../../test/support/mail.js';
import { type TestUser, adminSession, closeSupport, requestsDb } from './support.js';

interface UserEvent {
  userId: string;
  email: string;
}

const tap = new EventTap([Topics.userRegistered]);
let admin: TestUser;
beforeAll(async () => {
  await tap.start();
  admin = await adminSession();
});
afterAll(async () => {
  await tap.stop();
  await closeSupport();
});

const register = (email: string) => api('POST', '/api/auth/register', { body: { email, password: 'correct horse 1' } });

describe('user counters of the admin dashboard (from auth events)', () => {
  const stats = async () => (await api('GET', '/api/admin/dashboard', { token: admin.token })).body.stats;

  it('count a registration in totalUsers and its verification in verifiedUsers, once each', async () => {
    const before = await stats();
    const email = uniqueEmail('counted');
    expect((await register(email)).status).toBe(201);
    await eventually(async () => (await stats()).totalUsers === before.totalUsers + 1, 20_000, 'totalUsers + 1');
    expect((await stats()).verifiedUsers).toBe(before.verifiedUsers);

    const mail = await waitForEmail(email, /verify/i);
    const token = tokenOf(linkIn(mail, '/verify-email'));
    expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    await eventually(async () => (await stats()).verifiedUsers === before.verifiedUsers + 1, 20_000, 'verified + 1');

    // Asking for another verification email changes no counter. Whatever auth would publish for
    // it is keyed by the user, so lands on the partition of the user's registration.
    const first = await tap.waitFor<UserEvent>(Topics.userRegistered, (d) => d.email === email);
    expect((await api('POST', '/api/auth/resend-verification', { body: { email } })).status).toBe(200);
    // Sentinels: later registrations until one is on that partition. Requests handles a partition
    // in order, so once every sentinel is counted, anything the resend published was handled too.
    const sentinels = await tap.sentinels<UserEvent>(
      Topics.userRegistered,
      async () => {
        const other = uniqueEmail('sentinel');
        expect((await register(other)).status).toBe(201);
        return (d) => d.email === other;
      },
      [first.partition],
    );
    const directory = (await requestsDb()).collection<{ _id: string; registeredCounted: boolean }>('user_directory');
    await eventually(
      async () =>
        (await directory.countDocuments({
          _id: { $in: sentinels.map((e) => e.envelope.data.userId) },
          registeredCounted: true,
        })) === sentinels.length,
      20_000,
      'every sentinel registration counted',
    );
    const after = await stats();
    expect(after.totalUsers).toBe(before.totalUsers + 1 + sentinels.length);
    expect(after.verifiedUsers).toBe(before.verifiedUsers + 1);
  });
});
