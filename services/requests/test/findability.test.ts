import { randomUUID } from 'node:crypto';
import type { CoverageRequest } from '@homereport/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { type TestUser, adminSession, closeSupport, coveredRequest, session, setStatus, submit } from './support.js';

let admin: TestUser;
beforeAll(async () => {
  admin = await adminSession();
});
afterAll(closeSupport);

/** A word no other test's address holds. */
const uniqueWord = () => `w${randomUUID().replaceAll('-', '').slice(0, 10)}`;
const ids = (list: CoverageRequest[]) => list.map((r) => r.id);

describe('GET /api/requests/covered with q, sort and paging', () => {
  it('finds covered reports by words of the address, in any case and by part of a word, never open ones', async () => {
    const word = uniqueWord();
    const austin = await coveredRequest(admin, { address: `12 ${word} Lane, Austin, TX 78701` });
    const boise = await coveredRequest(admin, { address: `40 ${word} Road, Boise, ID 83702` });
    const { request: open } = await submit({ address: `7 ${word} Court, Austin, TX 78701` });

    const all = await api('GET', `/api/requests/covered?q=${word.toUpperCase()}`);
    expect(all.status).toBe(200);
    expect(ids(all.body.properties)).toEqual([boise, austin]);
    expect(ids(all.body.properties)).not.toContain(open.id);
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.properties[0].report_path).toBeNull();

    const inAustin = await api('GET', `/api/requests/covered?q=${encodeURIComponent(`${word} austin`)}`);
    expect(ids(inAustin.body.properties)).toEqual([austin]);
    const byZip = await api('GET', `/api/requests/covered?q=${encodeURIComponent(`8370 ${word.slice(0, 8)}`)}`);
    expect(ids(byZip.body.properties)).toEqual([boise]);
    expect((await api('GET', `/api/requests/covered?q=${uniqueWord()}`)).body).toEqual({
      properties: [],
      next_cursor: null,
    });
  });

  it('sorts by city and pages with next_cursor until null', async () => {
    const word = uniqueWord();
    const c = await coveredRequest(admin, { address: `1 ${word} St, Chicago, IL 60601` });
    const a = await coveredRequest(admin, { address: `2 ${word} St, Albany, NY 12207` });
    const b = await coveredRequest(admin, { address: `3 ${word} St, Boston, MA 02108` });

    const first = await api('GET', `/api/requests/covered?q=${word}&sort=city&limit=2`);
    expect(ids(first.body.properties)).toEqual([a, b]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api(
      'GET',
      `/api/requests/covered?q=${word}&sort=city&limit=2&cursor=${first.body.next_cursor}`,
    );
    expect(ids(second.body.properties)).toEqual([c]);
    expect(second.body.next_cursor).toBeNull();

    const newest = await api('GET', `/api/requests/covered?q=${word}&sort=newest`);
    expect(ids(newest.body.properties)).toEqual([b, a, c]);
    // A report set back to In Progress leaves the search at once.
    await setStatus(admin, a, 'in_progress');
    expect(ids((await api('GET', `/api/requests/covered?q=${word}&sort=city`)).body.properties)).toEqual([b, c]);
  });

  it('refuses a sort or limit it does not know, with a message', async () => {
    for (const query of ['sort=price', 'limit=0', 'limit=101', 'q=x&limit=500', 'cursor=-1']) {
      const res = await api('GET', `/api/requests/covered?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
  });
});

describe('GET /api/admin/requests', () => {
  it('lists every request newest first, by whole words of the address and by status, a page at a time', async () => {
    const word = uniqueWord();
    const made: string[] = [];
    for (const city of ['Austin', 'Dallas', 'Austin', 'Austin']) {
      made.push((await submit({ address: `${made.length + 1} ${word} Ave, ${city}, TX` })).request.id);
    }
    const [one, two, three, four] = made as [string, string, string, string];
    await setStatus(admin, three, 'in_progress');

    const all = await api('GET', `/api/admin/requests?q=${word}`, { token: admin.token });
    expect(all.status).toBe(200);
    expect(ids(all.body.requests)).toEqual([four, three, two, one]);
    expect(all.body.next_cursor).toBeNull();

    const austin = await api('GET', `/api/admin/requests?q=${encodeURIComponent(`austin ${word}`)}`, {
      token: admin.token,
    });
    expect(ids(austin.body.requests)).toEqual([four, three, one]);
    const open = await api('GET', `/api/admin/requests?q=${word}&status=requested`, { token: admin.token });
    expect(ids(open.body.requests)).toEqual([four, two, one]);

    const pages: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const res: { body: { requests: CoverageRequest[]; next_cursor: string | null } } = await api(
        'GET',
        `/api/admin/requests?q=${word}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        {
          token: admin.token,
        },
      );
      pages.push(...ids(res.body.requests));
      cursor = res.body.next_cursor;
    }
    expect(pages).toEqual([four, three, two, one]);
  });

  it('without a query is the newest requests of all, with notes, paged by cursor', async () => {
    const { request } = await submit({ address: `9 ${uniqueWord()} Way, Reno, NV`, notes: 'gate code 12' });
    const first = await api('GET', '/api/admin/requests?limit=1', { token: admin.token });
    expect(first.body.requests).toHaveLength(1);
    const second = await api('GET', `/api/admin/requests?limit=200&cursor=${first.body.next_cursor}`, {
      token: admin.token,
    });
    const seen = [...ids(first.body.requests), ...ids(second.body.requests)];
    expect(seen).toContain(request.id);
    expect(new Set(seen).size).toBe(seen.length);
    const shown = [...first.body.requests, ...second.body.requests].find((r: CoverageRequest) => r.id === request.id);
    expect(shown.notes).toBe('gate code 12');
  });

  it('is for admins only, and refuses a status or limit it does not know', async () => {
    expect((await api('GET', '/api/admin/requests')).status).toBe(401);
    expect((await api('GET', '/api/admin/requests', { token: (await session()).token })).status).toBe(403);
    for (const query of ['status=done', 'limit=201', 'limit=0', 'cursor=abc']) {
      const res = await api('GET', `/api/admin/requests?${query}`, { token: admin.token });
      expect(res.status, query).toBe(400);
    }
  });
});
