import { SAVED_REPORTS_MAX, type SavedReportsReply } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { api, eventually, uniqueEmail } from '../../../test/support/api.js';
import { linkIn, tokenOf, waitForEmail } from '../../../test/support/mail.js';
import { type TestUser, coveredRequest, requestsDb, session, submit, uniqueAddress, useAdmin } from './support.js';

const admin = useAdmin();

const savedIds = async (user: TestUser) => {
  const res = await api<SavedReportsReply>('GET', '/api/users/saved', { token: user.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.saved.map((r) => r.id);
};
const save = (user: TestUser, id: string) => api('PUT', `/api/users/saved/${id}`, { token: user.token });
const unsave = (user: TestUser, id: string) => api('DELETE', `/api/users/saved/${id}`, { token: user.token });

describe('saved reports', () => {
  it('a new user has none', async () => {
    expect(await savedIds(await session())).toEqual([]);
  });

  it('saving covered reports lists them newest saved first, without file links; saving again changes nothing', async () => {
    const user = await session();
    const first = await coveredRequest(admin);
    const second = await coveredRequest(admin);
    expect((await save(user, first)).status).toBe(204);
    expect((await save(user, second)).status).toBe(204);
    expect((await save(user, first)).status).toBe(204);
    expect(await savedIds(user)).toEqual([second, first]);
    const { body } = await api<SavedReportsReply>('GET', '/api/users/saved', { token: user.token });
    expect(body.saved[0]?.status).toBe('covered');
    expect(body.saved[0]?.report_path).toBeNull();
    // Each user has a list of their own.
    expect(await savedIds(await session())).toEqual([]);
  });

  it('removing is idempotent and leaves the others', async () => {
    const user = await session();
    const [a, b] = [await coveredRequest(admin), await coveredRequest(admin)];
    await save(user, a);
    await save(user, b);
    expect((await unsave(user, a)).status).toBe(204);
    expect((await unsave(user, a)).status).toBe(204);
    expect(await savedIds(user)).toEqual([b]);
  });

  it('an unknown or not covered request answers 404 and is not saved', async () => {
    const user = await session();
    const { request } = await submit({ address: uniqueAddress() });
    for (const id of ['no-such-request', request.id]) {
      const put = await save(user, id);
      expect(put.status).toBe(404);
      expect(put.body.error).toMatch(/not found/i);
      expect((await unsave(user, id)).status).toBe(404);
    }
    expect(await savedIds(user)).toEqual([]);
  });

  it('a saved report that stops being covered leaves the list and can still be removed', async () => {
    const user = await session();
    const id = await coveredRequest(admin);
    await save(user, id);
    const moved = await api('PUT', `/api/admin/requests/${id}/status`, {
      token: admin.token,
      body: { status: 'in_progress' },
    });
    expect(moved.status).toBe(200);
    expect(await savedIds(user)).toEqual([]);
    expect((await unsave(user, id)).status).toBe(204);
  });

  it('a malformed id answers 400, and every call needs a signed-in user (401)', async () => {
    const user = await session();
    expect((await save(user, 'x'.repeat(65))).status).toBe(400);
    expect((await api('GET', '/api/users/saved')).status).toBe(401);
    const id = await coveredRequest(admin);
    expect((await api('PUT', `/api/users/saved/${id}`)).status).toBe(401);
    expect((await api('DELETE', `/api/users/saved/${id}`)).status).toBe(401);
  });

  it('the list is stored once per user, each report once, even when saved twice at once', async () => {
    const user = await session();
    const id = await coveredRequest(admin);
    const answers = await Promise.all([save(user, id), save(user, id), save(user, id)]);
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204]);
    const doc = await (await requestsDb()).collection('saved_reports').findOne({ _id: user.userId as never });
    expect(doc?.ids).toEqual([id]);
  });

  it('a deleted account’s saved reports are erased', async () => {
    const email = uniqueEmail('saver');
    const password = 'saver password 12345';
    expect((await api('POST', '/api/auth/register', { body: { email, password } })).status).toBe(201);
    const verify = await waitForEmail(email, /verify/i);
    const token = tokenOf(linkIn(verify, '/verify-email'));
    expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    const login = await api<{ token: string; user: { id: string } }>('POST', '/api/auth/login', {
      body: { email, password },
    });
    expect(login.status).toBe(200);
    const user: TestUser = { userId: login.body.user.id, email, token: login.body.token };
    await save(user, await coveredRequest(admin));
    const saved = (await requestsDb()).collection<{ _id: string }>('saved_reports');
    expect(await saved.findOne({ _id: user.userId })).not.toBeNull();

    const deleted = await api('DELETE', '/api/auth/account', { token: user.token, body: { password } });
    expect(deleted.status).toBe(204);
    await eventually(
      async () => ((await saved.findOne({ _id: user.userId })) === null ? true : undefined),
      30_000,
      'the saved reports erased',
    );
  });

  it('past SAVED_REPORTS_MAX a new save answers 409 and changes nothing; one removed makes room', async () => {
    const user = await session();
    const full = Array.from({ length: SAVED_REPORTS_MAX }, (_, i) => `old-${i}`);
    const saved = (await requestsDb()).collection<{ _id: string; ids: string[] }>('saved_reports');
    await saved.insertOne({ _id: user.userId, ids: full });
    const id = await coveredRequest(admin);
    const refused = await save(user, id);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/up to 200 saved reports/);
    expect((await saved.findOne({ _id: user.userId }))?.ids).toEqual(full);
    expect((await unsave(user, 'old-0')).status).toBe(204);
    expect((await save(user, id)).status).toBe(204);
  });
});
