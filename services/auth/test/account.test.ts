import { randomUUID } from 'node:crypto';
import { type AccountExport, Topics } from '@homereport/contracts';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { testKafka } from '../../../test/support/events.js';
import { allLeads, createKey, genericLead, postLead } from '../../leads/test/support/leads.js';
import {
  adminSession,
  closeSupport,
  coveredRequest,
  setStatus,
  submit,
  uniqueAddress,
} from '../../requests/test/support.js';
import { type Account, PASSWORD, authApi, createAdmin, signIn, verifiedAccount } from './support/accounts.js';
import { authEvents } from './support/events.js';

const tap = authEvents();
beforeAll(() => tap.start());
afterAll(async () => {
  await tap.stop();
  await closeSupport();
});

const NEW_PASSWORD = 'a brand new passphrase 7';
const me = (token: string) => authApi('GET', '/api/auth/me', { token });
const changePassword = (token: string | undefined, body: Record<string, unknown>) =>
  authApi('POST', '/api/auth/change-password', { token, body });
const login = (email: string, password: string) => authApi('POST', '/api/auth/login', { body: { email, password } });

describe('POST /api/auth/change-password', () => {
  it('sets the new password, ends every other session of the user and keeps this one', async () => {
    const account = await verifiedAccount(tap);
    const here = await signIn(account);
    const elsewhere = [await signIn(account), await signIn(account)];

    const res = await changePassword(here, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ message: expect.stringMatching(/password has been changed/i) });

    expect((await me(here)).status).toBe(200);
    for (const token of elsewhere) expect((await me(token)).status).toBe(401);
    expect((await login(account.email, PASSWORD)).status).toBe(401);
    expect((await login(account.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses the current password as the new one with a 400 about the new password, and changes nothing', async () => {
    const account = await verifiedAccount(tap);
    const here = await signIn(account);
    const elsewhere = await signIn(account);

    const res = await changePassword(here, { current_password: PASSWORD, new_password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'Your new password must be different from your current one.',
      details: [{ field: 'new_password', message: 'Your new password must be different from your current one.' }],
    });
    expect((await me(elsewhere)).status).toBe(200);
  });

  it('with a wrong current password, answers 401 WRONG_PASSWORD and changes nothing, sessions included', async () => {
    const account = await verifiedAccount(tap);
    const here = await signIn(account);
    const elsewhere = await signIn(account);

    const res = await changePassword(here, { current_password: 'not my password', new_password: NEW_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'WRONG_PASSWORD', error: 'Your current password is incorrect.' });

    expect((await me(here)).status).toBe(200);
    expect((await me(elsewhere)).status).toBe(200);
    expect((await login(account.email, NEW_PASSWORD)).status).toBe(401);
    expect((await login(account.email, PASSWORD)).status).toBe(200);
  });

  it('with a weak new password, answers 400 naming new_password and keeps the old one', async () => {
    const account = await verifiedAccount(tap);
    const here = await signIn(account);
    const res = await changePassword(here, { current_password: PASSWORD, new_password: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/at least 8 characters/);
    expect(res.body.details).toEqual([{ field: 'new_password', message: expect.any(String) }]);
    expect((await login(account.email, PASSWORD)).status).toBe(200);
  });

  it('with a common new password (password1), answers 400 naming new_password and keeps the old one', async () => {
    const account = await verifiedAccount(tap);
    const here = await signIn(account);
    const res = await changePassword(here, { current_password: PASSWORD, new_password: 'password1' });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'new_password', message: 'This password is too common. Please choose another.' },
    ]);
    expect((await login(account.email, PASSWORD)).status).toBe(200);
  });

  it('counts wrong passwords with the sign-in attempts: past the limit it answers 429', async () => {
    const account = await verifiedAccount(tap);
    const here = await signIn(account);
    const wrong = { current_password: 'not my password', new_password: NEW_PASSWORD };
    // LOGIN_MAX_FAILURES_PER_ACCOUNT is 5: the sixth attempt is refused before the password is checked.
    for (let i = 0; i < 5; i++) expect((await changePassword(here, wrong)).status).toBe(401);
    const res = await changePassword(here, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('without a session, answers 401; with extra or missing fields, 400', async () => {
    expect((await changePassword(undefined, { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(
      401,
    );
    const here = await signIn(await verifiedAccount(tap));
    expect((await changePassword(here, { new_password: NEW_PASSWORD })).status).toBe(400);
    const extra = { current_password: PASSWORD, new_password: NEW_PASSWORD, role: 'admin' };
    expect((await changePassword(here, extra)).status).toBe(400);
  });
});

/** A signed-in user who asked for one property and opened a covered report of another. */
async function activeUser(): Promise<Account & { token: string; ownRequestId: string; viewedId: string }> {
  const account = await verifiedAccount(tap);
  const token = await signIn(account);
  const { request } = await submit({ address: uniqueAddress(), notes: 'my own request' }, token);
  const viewedId = await coveredRequest(await adminSession());
  const view = await api('GET', `/api/requests/${viewedId}/view`, { token });
  expect(view.status, JSON.stringify(view.body)).toBe(200);
  return { ...account, token, ownRequestId: request.id, viewedId };
}

describe('GET /api/auth/account/export', () => {
  it('answers an attachment holding the user, their requests, report views and credits', async () => {
    const user = await activeUser();
    const res = await authApi<AccountExport>('GET', '/api/auth/account/export', { token: user.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="homereport-data.json"');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.user).toEqual({
      id: user.userId,
      email: user.email,
      role: 'user',
      emailVerified: true,
      created_at: expect.any(String),
    });
    expect(res.body.requests).toEqual([
      expect.objectContaining({ id: user.ownRequestId, notes: 'my own request', status: 'requested' }),
    ]);
    expect(res.body.access_history).toEqual([expect.objectContaining({ request_id: user.viewedId })]);
    expect(res.body.credits).toMatchObject({ credits: 9, totalAccess: 1, uniqueReports: 1 });
  });

  it('without a session, answers 401', async () => {
    expect((await api('GET', '/api/auth/account/export')).status).toBe(401);
  });
});

/** Every document of every service's database that mentions `needle` (any letter case), as "db.collection". */
async function whereStored(needle: string): Promise<string[]> {
  const client = new MongoClient(testEnv().mongoUrl);
  try {
    await client.connect();
    const found: string[] = [];
    const { databases } = await client.db().admin().listDatabases();
    for (const { name } of databases.filter((d) => d.name.startsWith('homereport_'))) {
      const db = client.db(name);
      for (const { name: collection } of await db.listCollections({}, { nameOnly: true }).toArray()) {
        for (const doc of await db.collection(collection).find({}).toArray()) {
          if (JSON.stringify(doc).toLowerCase().includes(needle.toLowerCase())) found.push(`${name}.${collection}`);
        }
      }
    }
    return [...new Set(found)];
  } finally {
    await client.close();
  }
}

/** The admin dashboard's user counters, as the requests service keeps them. */
async function userCounts(): Promise<{ totalUsers: number; verifiedUsers: number }> {
  const doc = await requestsDoc('stats', { _id: 'users' });
  return { totalUsers: doc?.totalUsers ?? 0, verifiedUsers: doc?.verifiedUsers ?? 0 };
}

/** How far a service's consumer (its group is named after it) got with an event: its claim's status. */
async function processed(service: string, eventId: string): Promise<string | undefined> {
  const client = new MongoClient(testEnv().mongoUrl);
  try {
    await client.connect();
    const claims = client.db(`homereport_${service}`).collection<{ _id: string; status?: string }>('processed_events');
    return (await claims.findOne({ _id: `${service}:${eventId}` }))?.status;
  } finally {
    await client.close();
  }
}

/** Waits for the consumers to erase `email` everywhere; failing, names where it stayed. */
async function expectForgotten(email: string): Promise<void> {
  let where: string[] = [];
  await eventually(
    async () => {
      where = await whereStored(email);
      return where.length === 0;
    },
    30_000,
    'the email gone everywhere',
  ).catch(() => undefined);
  expect(where).toEqual([]);
}

async function requestsDoc(collection: string, filter: Record<string, unknown>) {
  const client = new MongoClient(testEnv().mongoUrl);
  try {
    await client.connect();
    return await client.db('homereport_requests').collection(collection).findOne(filter);
  } finally {
    await client.close();
  }
}

describe('DELETE /api/auth/account', () => {
  it('with a wrong password, answers 401 WRONG_PASSWORD and the account stays', async () => {
    const account = await verifiedAccount(tap);
    const token = await signIn(account);
    const res = await authApi('DELETE', '/api/auth/account', { token, body: { password: 'not my password' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('WRONG_PASSWORD');
    expect((await me(token)).status).toBe(200);
    expect((await login(account.email, PASSWORD)).status).toBe(200);
  });

  it('answers 204, ends every session, sign-in answers 401, and no service keeps the email', async () => {
    const user = await activeUser();
    const other = await signIn(user);
    // A contact message from the same address: notifications keeps the sender and the acknowledgement.
    const contact = await api('POST', '/api/contact', {
      body: { name: 'Dana Deleted', email: user.email, subject: 'Hello', message: 'Please call me.' },
    });
    expect(contact.status).toBe(202);
    // And an ad platform's lead with the same address, as the person typed it.
    const key = await createKey((await adminSession()).token);
    const lead = await postLead(genericLead({ email: user.email.toUpperCase() }), key.secret);
    expect(lead.status, JSON.stringify(lead.body)).toBe(200);
    // Wait until every service recorded the address, so the erasure is what removes it afterwards.
    const holders = [
      'homereport_requests.requests',
      'homereport_notifications.sent_emails',
      'homereport_notifications.contact_messages',
      'homereport_leads.leads',
    ];
    await eventually(
      async () => {
        const where = await whereStored(user.email);
        return holders.every((c) => where.includes(c));
      },
      30_000,
      'the address in requests and notifications',
    );
    await eventually(
      async () => (await requestsDoc('user_activity', { _id: user.userId }))?.history?.length === 1,
      20_000,
      'the view in the user activity',
    );
    await eventually(
      async () => {
        const entry = await requestsDoc('user_directory', { _id: user.userId });
        return entry?.registeredCounted === true && entry.verifiedCounted === true;
      },
      20_000,
      'the user in the dashboard counters',
    );
    const countsBefore = await userCounts();

    const res = await authApi('DELETE', '/api/auth/account', { token: user.token, body: { password: PASSWORD } });
    expect(res.status, JSON.stringify(res.body)).toBe(204);

    expect((await me(user.token)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    const signInAgain = await login(user.email, PASSWORD);
    expect(signInAgain.status).toBe(401);
    expect(signInAgain.body.error).toBe('Invalid email or password.');

    const event = await tap.waitFor<{ user_id: string; email: string }>(
      Topics.accountDeleted,
      (d) => d.user_id === user.userId,
    );
    expect(event.envelope.data).toEqual({ user_id: user.userId, email: user.email });

    await expectForgotten(user.email);

    // The request stays for the product, without its requester; the view's ledger and credits are gone.
    const request = await requestsDoc('requests', { _id: user.ownRequestId });
    expect(request).toMatchObject({ address: expect.any(String), requester: null });
    expect(await requestsDoc('user_activity', { _id: user.userId })).toBeNull();
    expect(await requestsDoc('access_log', { userId: user.userId })).toBeNull();
    expect(await requestsDoc('credit_periods', { userId: user.userId })).toBeNull();
    expect(await requestsDoc('user_directory', { _id: user.userId })).toBeNull();
    const countsAfter = { totalUsers: countsBefore.totalUsers - 1, verifiedUsers: countsBefore.verifiedUsers - 1 };
    expect(await userCounts()).toEqual(countsAfter);

    // The same deletion announced again (a copy under a new event id, so no consumer's claim
    // stops it): every consumer handles it, and nothing changes twice.
    const again = { ...event.envelope, id: randomUUID() };
    const producer = testKafka().producer();
    await producer.connect();
    try {
      await producer.send({
        topic: Topics.accountDeleted,
        acks: -1,
        messages: [{ key: user.userId, value: JSON.stringify(again) }],
      });
    } finally {
      await producer.disconnect();
    }
    await eventually(
      async () => {
        const done = await Promise.all(
          ['requests', 'notifications', 'leads'].map((service) => processed(service, again.id)),
        );
        return done.every((status) => status === 'done');
      },
      30_000,
      'the copy handled by every consumer',
    );
    expect(await userCounts()).toEqual(countsAfter);
    expect(await requestsDoc('requests', { _id: user.ownRequestId })).toMatchObject({ requester: null });
  });

  it('a deleted admin’s address leaves the status history of the requests they moved; the changes stay', async () => {
    const admin = { email: uniqueEmail('admin'), password: PASSWORD };
    expect((await createAdmin(admin.email, admin.password)).code).toBe(0);
    const token = await signIn(admin, '/api/auth/admin-login');
    const { request } = await submit({ address: uniqueAddress() });
    await setStatus({ userId: '', email: admin.email, token }, request.id, 'in_progress');
    const key = await createKey(token);
    expect((await postLead(genericLead(), key.secret)).status).toBe(200);
    const [lead] = await allLeads(token, { key_name: key.name });
    const moved = await api('PUT', `/api/admin/leads/${lead.id}/status`, { token, body: { status: 'contacted' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await eventually(
      async () => {
        const where = await whereStored(admin.email);
        return where.includes('homereport_requests.requests') && where.includes('homereport_leads.leads');
      },
      20_000,
      'the admin in the status histories',
    );

    const res = await authApi('DELETE', '/api/auth/account', { token, body: { password: PASSWORD } });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    await expectForgotten(admin.email);
    const stored = await requestsDoc('requests', { _id: request.id });
    expect(stored?.status).toBe('in_progress');
    const leadAfter = await api('GET', `/api/admin/leads/${lead.id}`, { token: (await adminSession()).token });
    expect(leadAfter.body.lead).toMatchObject({
      lead_status: 'contacted',
      status_changed_by: 'deleted user',
      status_history: [expect.objectContaining({ to: 'contacted', by: { id: 'deleted-user', email: 'deleted user' } })],
    });
    expect(stored?.status_history).toEqual([
      expect.objectContaining({
        from: 'requested',
        to: 'in_progress',
        by: { userId: 'deleted-user', email: 'deleted user' },
      }),
    ]);
  });

  it('without a session, answers 401', async () => {
    expect((await api('DELETE', '/api/auth/account', { body: { password: PASSWORD } })).status).toBe(401);
  });
});
