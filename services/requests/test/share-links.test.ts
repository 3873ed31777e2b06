import { describe, expect, it } from 'vitest';
import { api, eventually, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { linkIn, tokenOf as mailToken, waitForEmail } from '../../../test/support/mail.js';
import { type TestUser, coveredRequest, requestsDb, session, submit, uniqueAddress, useAdmin } from './support.js';

const admin = useAdmin();

const DAY = 24 * 60 * 60 * 1000;
const view = (user: TestUser, id: string) => api('GET', `/api/requests/${id}/view`, { token: user.token });
const share = (user: TestUser, id: string) => api('POST', `/api/requests/${id}/share`, { token: user.token });
const revoke = (user: TestUser, id: string) => api('DELETE', `/api/requests/${id}/share`, { token: user.token });
const stats = async (user: TestUser) => (await api('GET', '/api/users/stats', { token: user.token })).body;
/** The token at the end of a share_url. */
const tokenOf = (shareUrl: string) => new URL(shareUrl).pathname.replace(/^\/shared\//, '');
const openShared = (token: string, user?: TestUser) => api('GET', `/api/shared/${token}`, { token: user?.token });

/** A covered report (with notes of its requester) that `user` opened, and a link they made to it. */
async function sharedReport(user: TestUser) {
  const id = await coveredRequest(admin, { notes: 'the requester’s own notes' });
  expect((await view(user, id)).status).toBe(200);
  const res = await share(user, id);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id, link: res.body as { share_url: string; expires_at: string } };
}

describe('creating a share link', () => {
  it('answers 201 with a link to the web app and an expiry 7 days ahead', async () => {
    const user = await session();
    const { link } = await sharedReport(user);
    expect(Object.keys(link).sort()).toEqual(['expires_at', 'share_url']);
    expect(link.share_url).toMatch(new RegExp(`^${testEnv().gatewayUrl.replace(/\/$/, '')}/shared/[A-Za-z0-9_.-]+$`));
    expect(Math.abs(new Date(link.expires_at).getTime() - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
  });

  it('each call makes a new link, and every one opens', async () => {
    const user = await session();
    const { id, link } = await sharedReport(user);
    const again = (await share(user, id)).body;
    expect(again.share_url).not.toBe(link.share_url);
    for (const url of [link.share_url, again.share_url]) expect((await openShared(tokenOf(url))).status).toBe(200);
  });

  it('is refused with 403 for a report the user has not opened', async () => {
    const user = await session();
    const id = await coveredRequest(admin);
    const res = await share(user, id);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/open this report first/i);
  });

  it('is refused with 403 when the report was opened in an earlier credit period only', async () => {
    const user = await session();
    const id = await coveredRequest(admin);
    expect((await view(user, id)).status).toBe(200);
    // The user's periods start 31 days earlier: the open above now belongs to the previous one.
    const activity = (await requestsDb()).collection('user_activity');
    const doc = await activity.findOne({ _id: user.userId as never });
    await activity.updateOne(
      { _id: user.userId as never },
      { $set: { anchor: new Date((doc?.anchor as Date).getTime() - 31 * DAY) } },
    );
    expect((await share(user, id)).status).toBe(403);
  });

  it('lets the requester share their own report once they opened it (free, but still opened)', async () => {
    const requester = await session();
    const id = await coveredRequest(admin, {}, requester.token);
    expect((await share(requester, id)).status).toBe(403);
    expect((await view(requester, id)).status).toBe(200);
    expect((await stats(requester)).credits).toBe(10);
    expect((await share(requester, id)).status).toBe(201);
  });

  it('answers 404 for an unknown or uncovered report, and 401 without a session', async () => {
    const user = await session();
    expect((await share(user, 'no-such-request')).status).toBe(404);
    const { request } = await submit({ address: uniqueAddress() });
    expect((await share(user, request.id)).status).toBe(404);
    expect((await api('POST', `/api/requests/${request.id}/share`)).status).toBe(401);
    expect((await api('DELETE', `/api/requests/${request.id}/share`)).status).toBe(401);
    expect((await revoke(user, 'no-such-request')).status).toBe(404);
  });
});

describe('opening a share link', () => {
  it('shows the report without an account, with file links that download, and without the requester’s notes', async () => {
    const user = await session();
    const { id, link } = await sharedReport(user);
    const res = await openShared(tokenOf(link.share_url));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.request).toMatchObject({ id, status: 'covered', notes: null });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.request.report_path).toMatch(/^\/api\/files\/.+\?expires=\d+&signature=/);
    const file = await api('GET', res.body.request.report_path);
    expect(file.status).toBe(200);
    expect(String(file.body)).toContain(`report of ${id}`);
  });

  it('spends no credit and records no view, for the sharer or a signed-in visitor', async () => {
    const sharer = await session();
    const visitor = await session();
    const { link } = await sharedReport(sharer);
    const before = await stats(sharer);
    expect(before).toMatchObject({ credits: 9, totalAccess: 1 });
    expect((await openShared(tokenOf(link.share_url))).status).toBe(200);
    expect((await openShared(tokenOf(link.share_url), visitor)).status).toBe(200);
    expect(await stats(sharer)).toMatchObject({ credits: 9, totalAccess: 1, uniqueReports: 1 });
    expect(await stats(visitor)).toMatchObject({ credits: 10, totalAccess: 0, uniqueReports: 0 });
    const history = await api('GET', '/api/users/access-history', { token: visitor.token });
    expect(history.body.history).toEqual([]);
  });

  it('answers 410 for every earlier link once the sharer revokes, and a new link works again', async () => {
    const user = await session();
    const { id, link } = await sharedReport(user);
    const second = (await share(user, id)).body.share_url as string;
    expect((await revoke(user, id)).status).toBe(204);
    for (const url of [link.share_url, second]) {
      const res = await openShared(tokenOf(url));
      expect(res.status).toBe(410);
      expect(res.body.error).toMatch(/revoked or has expired/);
    }
    const fresh = await share(user, id);
    expect(fresh.status).toBe(201);
    expect((await openShared(tokenOf(fresh.body.share_url))).status).toBe(200);
    expect((await openShared(tokenOf(link.share_url))).status).toBe(410);
  });

  it('a revocation by one user leaves another user’s links to the same report working', async () => {
    const [a, b] = [await session(), await session()];
    const { id, link } = await sharedReport(a);
    expect((await view(b, id)).status).toBe(200);
    const linkOfB = (await share(b, id)).body.share_url as string;
    expect((await revoke(a, id)).status).toBe(204);
    expect((await openShared(tokenOf(link.share_url))).status).toBe(410);
    expect((await openShared(tokenOf(linkOfB))).status).toBe(200);
  });

  it('answers 410 once the link has expired', async () => {
    const user = await session();
    const { link } = await sharedReport(user);
    const token = tokenOf(link.share_url);
    const shareId = token.split('.')[0];
    const shares = (await requestsDb()).collection('shares');
    const moved = await shares.updateOne(
      { _id: shareId as never },
      { $set: { expires_at: new Date(Date.now() - 1000) } },
    );
    expect(moved.matchedCount).toBe(1);
    const res = await openShared(token);
    expect(res.status).toBe(410);
    expect(res.body.error).toMatch(/revoked or has expired/);
  });

  it('answers 404, not an error, for a tampered, made-up or unknown token', async () => {
    const user = await session();
    const { link } = await sharedReport(user);
    const token = tokenOf(link.share_url);
    const [id = '', expiry = '', signature = ''] = token.split('.');
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    const tampered = [
      `${flip(id)}.${expiry}.${signature}`,
      // A later expiry with the old signature: a link cannot be made to live longer.
      `${id}.${(Number.parseInt(expiry, 36) + 86_400).toString(36)}.${signature}`,
      `${id}.${expiry}.${flip(signature)}`,
      'not-a-token',
      'x',
    ];
    for (const bad of tampered) {
      const res = await openShared(bad);
      expect(res.status, bad).toBe(404);
      expect(res.body.error).toMatch(/does not exist/);
    }
  });

  it('answers 404 once the sharer deleted their account: their links are erased with it', async () => {
    const password = 'sharer password 12345';
    const email = uniqueEmail('leaving-sharer');
    expect((await api('POST', '/api/auth/register', { body: { email, password } })).status).toBe(201);
    const verify = await waitForEmail(email, /verify/i);
    const token = mailToken(linkIn(verify, '/verify-email'));
    expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    const login = await api('POST', '/api/auth/login', { body: { email, password } });
    expect(login.status).toBe(200);
    const sharer: TestUser = { userId: login.body.user.id, email, token: login.body.token };
    const { link } = await sharedReport(sharer);
    expect((await openShared(tokenOf(link.share_url))).status).toBe(200);

    const deleted = await api('DELETE', '/api/auth/account', { token: sharer.token, body: { password } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    await eventually(
      async () => (await openShared(tokenOf(link.share_url))).status === 404,
      30_000,
      'the deleted account’s share link erased',
    );
  });
});
