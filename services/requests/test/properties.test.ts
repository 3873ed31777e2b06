import { randomUUID } from 'node:crypto';
import type { CoverageRequest } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { api, eventually } from '../../../test/support/api.js';
import { emailsTo, waitForEmail } from '../../../test/support/mail.js';
import { DIFFERENT_PROPERTIES, SAME_PROPERTY } from '../src/domain/property-key.cases.js';
import { session, setStatus, submit, uploadReport, useAdmin } from './support.js';

/** One property, one report, one credit (api.md "Properties"; issue 36). */
const admin = useAdmin();

/** A street nobody else's test uses, spelled three ways that normalise alike. */
function threeSpellings() {
  const street = `Q${randomUUID().replaceAll('-', '').slice(0, 9)}`;
  const number = 100 + Math.floor(Math.random() * 9000);
  return {
    street,
    spellings: [
      `${number} ${street} Street, Denver, CO 80202`,
      `${number} ${street.toUpperCase()} ST, DENVER, CO 80202`,
      `  ${number} ${street} St.,  Denver CO 80202-1234 `,
    ] as const,
  };
}

const idsOf = (list: CoverageRequest[]) => list.map((r) => r.id);

async function credits(token: string): Promise<number> {
  return (await api('GET', '/api/users/stats', { token })).body.credits;
}

describe('addresses that name one property', () => {
  it.each([
    ...SAME_PROPERTY.map(([a, b]) => [a, b, true] as const),
    ...DIFFERENT_PROPERTIES.map(([a, b]) => [a, b, false] as const),
  ])('%s and %s: one property %s', async (a, b, same) => {
    // Two requesters, so neither request is a repeat of the other.
    const first = await submit({ address: a }, (await session()).token);
    const second = await submit({ address: b }, (await session()).token);
    expect(first.request.property_id).toEqual(expect.any(String));
    if (same) expect(second.request.property_id).toBe(first.request.property_id);
    else expect(second.request.property_id).not.toBe(first.request.property_id);
  });
});

describe('one card per property', () => {
  it('three spellings by three people are one covered entry with requests_count 3; covering one covers all', async () => {
    const { street, spellings } = threeSpellings();
    const users = [await session(), await session(), await session()];
    const made = [];
    for (const [i, address] of spellings.entries()) made.push((await submit({ address }, users[i]?.token)).request);
    expect(new Set(made.map((r) => r.property_id)).size).toBe(1);
    const [first, second, third] = made as [CoverageRequest, CoverageRequest, CoverageRequest];

    await uploadReport(admin, second.id);
    await setStatus(admin, second.id, 'covered');

    // Every open request of the property is covered with the same report file.
    for (const request of made) {
      const view = await api('GET', `/api/admin/requests/${request.id}`, { token: admin.token });
      expect(view.body.status, request.id).toBe('covered');
      expect(view.body.report_path, request.id).toEqual(expect.any(String));
      expect(view.body).toMatchObject({ requests_count: 3, requesters_count: 3 });
    }
    const list = await api('GET', '/api/requests/covered');
    const entries = list.body.properties.filter((p: CoverageRequest) => p.property_id === first.property_id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ id: second.id, requests_count: 3 });

    const search = await api('GET', `/api/requests/covered?q=${street.toLowerCase()}`);
    expect(idsOf(search.body.properties)).toEqual([second.id]);
    expect(search.body.properties[0].requests_count).toBe(3);
    const byCity = await api('GET', `/api/requests/covered?q=${street.slice(0, 6)}%20denv&sort=city`);
    expect(idsOf(byCity.body.properties)).toEqual([second.id]);

    // The admin sees the property's requests, with a filter by property.
    const ofProperty = await api('GET', `/api/admin/requests?property_id=${first.property_id}`, {
      token: admin.token,
    });
    expect(ofProperty.status).toBe(200);
    expect(idsOf(ofProperty.body.requests)).toEqual([third.id, second.id, first.id]);
    expect(ofProperty.body.requests[0].requests_count).toBe(3);
    const listed = await api('GET', `/api/admin/requests?q=${street}`, { token: admin.token });
    expect(listed.body.requests.map((r: CoverageRequest) => r.requests_count)).toEqual([3, 3, 3]);

    // The property leaves the list only when no request of it is covered any more.
    await setStatus(admin, second.id, 'in_progress');
    const still = await api('GET', `/api/requests/covered?q=${street}`);
    expect(still.body.properties).toHaveLength(1);
    expect(still.body.properties[0].id).not.toBe(second.id);
  });

  it('one credit per property whichever request id is opened; a property one requested is free', async () => {
    const { spellings } = threeSpellings();
    const requesters = [await session(), await session()];
    const a = (await submit({ address: spellings[0] }, requesters[0]?.token)).request;
    const b = (await submit({ address: spellings[1] }, requesters[1]?.token)).request;
    await uploadReport(admin, a.id);
    await setStatus(admin, a.id, 'covered');

    const reader = await session();
    const before = await credits(reader.token);
    for (const id of [a.id, b.id, a.id, b.id]) {
      const res = await api('GET', `/api/requests/${id}/view`, { token: reader.token });
      expect(res.status, id).toBe(200);
      expect(res.body.request.report_path).toEqual(expect.any(String));
    }
    expect(await credits(reader.token)).toBe(before - 1);
    const stats = (await api('GET', '/api/users/stats', { token: reader.token })).body;
    expect(stats.uniqueReports).toBe(1);
    expect(stats.totalAccess).toBe(4);
    const history = (await api('GET', '/api/users/access-history', { token: reader.token })).body.history;
    expect(history).toHaveLength(4);
    expect(new Set(history.map((h: { property_id: string }) => h.property_id))).toEqual(new Set([a.property_id]));

    // The second requester opens the property through the first one's request id: theirs, free.
    const own = requesters[1] as { token: string };
    const ownBefore = await credits(own.token);
    expect((await api('GET', `/api/requests/${a.id}/view`, { token: own.token })).status).toBe(200);
    expect(await credits(own.token)).toBe(ownBefore);
  });
});

describe('a repeat and a newcomer', () => {
  it('a repeat by the same requester is 200 with their earlier request, and no second receipt email', async () => {
    const user = await session();
    const { spellings } = threeSpellings();
    const first = await submit({ address: spellings[0] }, user.token);
    await waitForEmail(user.email, /We received your request/);
    const again = await api('POST', '/api/requests', { body: { address: spellings[2] }, token: user.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ request: first.request, duplicate_of: first.request.id });
    // A later request of theirs: once its receipt is here, the repeat's would have been too.
    const { spellings: other } = threeSpellings();
    await submit({ address: other[0] }, user.token);
    const receipts = await eventually(
      async () => {
        const mails = (await emailsTo(user.email)).filter((m) => /We received your request/.test(m.subject));
        return mails.some((m) => m.subject.includes(other[0])) ? mails : undefined;
      },
      30_000,
      'the later receipt',
    );
    expect(receipts).toHaveLength(2);
    const mine = await api('GET', '/api/requests/mine', { token: user.token });
    expect(mine.body.requests).toHaveLength(2);
  });

  it('someone else asking about a covered property is accepted (201) and covered with it at once', async () => {
    const { spellings } = threeSpellings();
    const first = (await submit({ address: spellings[0] }, (await session()).token)).request;
    await uploadReport(admin, first.id);
    await setStatus(admin, first.id, 'covered');
    const newcomer = await session();
    const joined = await api('POST', '/api/requests', { body: { address: spellings[1] }, token: newcomer.token });
    expect(joined.status).toBe(201);
    expect(joined.body.duplicate_of).toBeUndefined();
    expect(joined.body.request).toMatchObject({ property_id: first.property_id, status: 'covered' });
    const view = await api('GET', `/api/requests/${joined.body.request.id}/view`, { token: newcomer.token });
    expect(view.status).toBe(200);
    expect(view.body.request.report_path).toEqual(expect.any(String));
    // The covered list takes the count in the covering's after-step, which may finish a moment later.
    const entries = async () =>
      (await api('GET', '/api/requests/covered')).body.properties.filter(
        (p: CoverageRequest) => p.property_id === first.property_id,
      );
    await expect.poll(entries).toMatchObject([{ id: first.id, requests_count: 2 }]);
  });
});

describe('counts of properties', () => {
  it('the admin dashboard counts properties beside requests; the user dashboard counts each property once', async () => {
    const dashboard = async () => (await api('GET', '/api/admin/dashboard', { token: admin.token })).body.stats;
    const before = await dashboard();
    const { spellings } = threeSpellings();
    const user = await session();
    await submit({ address: spellings[0] }, (await session()).token);
    await submit({ address: spellings[1] }, user.token);
    const after = await dashboard();
    expect(after.total - before.total).toBe(2);
    expect(after.properties - before.properties).toBe(1);
  });
});

describe('admin search words', () => {
  it('refuses a word over 64 characters with a message, rather than listing everything', async () => {
    for (const path of ['/api/admin/requests', '/api/requests/covered']) {
      const long = await api('GET', `${path}?q=${'x'.repeat(65)}`, { token: admin.token });
      expect(long.status, path).toBe(400);
      expect(long.body.error).toBe('Search words can be at most 64 characters long.');
      const sixtyFour = await api('GET', `${path}?q=${'x'.repeat(64)}`, { token: admin.token });
      expect(sixtyFour.status, path).toBe(200);
      expect(sixtyFour.body.requests ?? sixtyFour.body.properties).toEqual([]);
    }
  });
});
