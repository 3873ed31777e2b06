import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { type TestUser, adminSession, closeSupport, coveredRequest, requestsDb, session } from './support.js';

let admin: TestUser;
beforeAll(async () => {
  admin = await adminSession();
});
afterAll(closeSupport);

const view = (user: TestUser, id: string) => api('GET', `/api/requests/${id}/view`, { token: user.token });
const stats = async (user: TestUser) => (await api('GET', '/api/users/stats', { token: user.token })).body;
const coveredReports = (n: number) => Promise.all(Array.from({ length: n }, () => coveredRequest(admin)));
const DAY = 24 * 60 * 60 * 1000;

/** Moves the start of the user's credit periods back, as if their first view was `days` ago. */
async function ageCredits(user: TestUser, days: number) {
  const activity = (await requestsDb()).collection('user_activity');
  const doc = await activity.findOne({ _id: user.userId as never });
  await activity.updateOne(
    { _id: user.userId as never },
    { $set: { anchor: new Date((doc?.anchor as Date).getTime() - days * DAY) } },
  );
}

describe('report credits', () => {
  it('a new user has 10 credits and a refresh date 30 days ahead', async () => {
    const user = await session();
    const res = await api('GET', '/api/users/stats', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ credits: 10, totalAccess: 0, uniqueReports: 0, subscription_status: 'free' });
    const refresh = new Date(res.body.next_refresh_at).getTime();
    expect(Math.abs(refresh - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
  });

  it('stats and history need a signed-in user', async () => {
    expect((await api('GET', '/api/users/stats')).status).toBe(401);
    expect((await api('GET', '/api/users/access-history')).status).toBe(401);
  });

  it('the first view of a report costs one credit, reopening it is free, and every view is recorded', async () => {
    const user = await session();
    const [a, b] = await coveredReports(2);
    expect((await view(user, a as string)).status).toBe(200);
    expect(await stats(user)).toMatchObject({ credits: 9, totalAccess: 1, uniqueReports: 1 });
    expect((await view(user, a as string)).status).toBe(200);
    expect((await view(user, a as string)).status).toBe(200);
    expect(await stats(user)).toMatchObject({ credits: 9, totalAccess: 3, uniqueReports: 1 });
    expect((await view(user, b as string)).status).toBe(200);
    expect(await stats(user)).toMatchObject({ credits: 8, totalAccess: 4, uniqueReports: 2 });

    const history = await api('GET', '/api/users/access-history', { token: user.token });
    expect(history.status).toBe(200);
    expect(history.body.history.map((h: { request_id: string }) => h.request_id)).toEqual([b, a, a, a]);
    const entry = history.body.history[0];
    expect(Object.keys(entry).sort()).toEqual(['accessed_at', 'address', 'id', 'property_id', 'request_id']);
    expect(entry.address).toMatch(/Street, Austin, TX$/);
    expect(new Set(history.body.history.map((h: { id: string }) => h.id)).size).toBe(4);
  });

  it('the 11th distinct report of a period is 402 with when credits refresh; opened ones still open', async () => {
    const user = await session();
    const reports = await coveredReports(11);
    for (const id of reports.slice(0, 10)) expect((await view(user, id)).status).toBe(200);
    const refused = await view(user, reports[10] as string);
    expect(refused.status).toBe(402);
    const { next_refresh_at } = await stats(user);
    const refreshDay = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(next_refresh_at));
    expect(refused.body.error).toContain(`refresh on ${refreshDay}`);
    expect(refused.body.code).toBe('NO_CREDITS');
    expect((await view(user, reports[3] as string)).status).toBe(200);
    expect(await stats(user)).toMatchObject({ credits: 0, totalAccess: 11, uniqueReports: 10 });
  });

  it('a new period restores 10 credits; a report opened last period costs one again', async () => {
    const user = await session();
    const reports = await coveredReports(11);
    for (const id of reports.slice(0, 10)) expect((await view(user, id)).status).toBe(200);
    expect((await view(user, reports[10] as string)).status).toBe(402);
    const before = await stats(user);

    await ageCredits(user, 31);
    const fresh = await stats(user);
    expect(fresh.credits).toBe(10);
    // The periods now started 31 days earlier: the second one ends a day before the first did.
    expect(new Date(fresh.next_refresh_at).getTime()).toBe(new Date(before.next_refresh_at).getTime() - DAY);
    expect((await view(user, reports[10] as string)).status).toBe(200);
    expect((await view(user, reports[0] as string)).status).toBe(200);
    expect(await stats(user)).toMatchObject({ credits: 8, uniqueReports: 11, totalAccess: 12 });
  });

  it('an admin opens reports without spending credits', async () => {
    const id = await coveredRequest(admin);
    expect((await view(admin, id)).status).toBe(200);
    expect((await stats(admin)).credits).toBe(10);
  });
});

describe('credits under concurrency', () => {
  it('20 different reports opened at once by a user with 10 credits: exactly 10 succeed', async () => {
    const user = await session();
    const reports = await coveredReports(20);
    const results = await Promise.all(reports.map((id) => view(user, id)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(10);
    expect(await stats(user)).toMatchObject({ credits: 0, totalAccess: 10, uniqueReports: 10 });
  });

  it('the same report opened 10 times at once costs exactly one credit', async () => {
    const user = await session();
    const id = await coveredRequest(admin);
    const results = await Promise.all(Array.from({ length: 10 }, () => view(user, id)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await stats(user)).toMatchObject({ credits: 9, totalAccess: 10, uniqueReports: 1 });
    const history = await api('GET', '/api/users/access-history', { token: user.token });
    expect(history.body.history).toHaveLength(10);
  });
});

/** Straight fetch on kept-alive connections: the calls reach the service together, not staggered. */
const fetchJson = async (path: string, token: string, body?: unknown) => {
  const res = await fetch(`${testEnv().gatewayUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe('first opens racing each other', () => {
  it("a fresh user's simultaneous first opens all succeed while credits last (the period document is created mid-race)", async () => {
    const reports = await coveredReports(8);
    for (let round = 0; round < 4; round++) {
      const user = await session();
      const results = await Promise.all(
        [...reports, ...reports.slice(0, 4)].map((id) => fetchJson(`/api/requests/${id}/view`, user.token)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      expect(await stats(user)).toMatchObject({ credits: 2, totalAccess: 12, uniqueReports: 8 });
    }
  });

  it("a user's first requests submitted at once all appear in their list", async () => {
    const user = await session();
    const created = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetchJson('/api/requests', user.token, { address: `${Math.random()} Race Road, Reno, NV` }),
      ),
    );
    const mine = await api('GET', '/api/requests/mine', { token: user.token });
    expect(new Set(mine.body.requests.map((r: { id: string }) => r.id))).toEqual(
      new Set(created.map((r) => r.body.request.id)),
    );
  });
});
