import { randomUUID } from 'node:crypto';
import { Topics } from '@homereport/contracts';
import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ACCOUNT_REQUESTS_PER_HOUR, TEST_ANON_REQUESTS_PER_HOUR } from '../../../test/support/allowances.js';
import { api, eventually, freshClientAddress } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { EventTap, testKafka } from '../../../test/support/events.js';
import {
  accountRequestsSent,
  anonymousRequestsSent,
  coveredRequest,
  requestsDb,
  session,
  setStatus,
  submit,
  uniqueAddress,
  uploadReport,
  useAdmin,
} from './support.js';

const REQUEST_FIELDS = [
  'address',
  'created_at',
  'id',
  'neighborhood_report_path',
  'notes',
  'property_id',
  'report_path',
  'school_report_path',
  'status',
  'strategy_path',
  'updated_at',
  'url',
];
/** A request read with its property: the report's figures and the ZIP code (api.md "Report summary"). */
const WITH_PROPERTY = [...REQUEST_FIELDS, 'summary', 'zip_code'].sort();

const admin = useAdmin();
let tap: EventTap;

beforeAll(async () => {
  tap = await new EventTap([
    Topics.requestSubmitted,
    Topics.requestStatusChanged,
    Topics.requestCovered,
    Topics.reportViewed,
  ]).start();
});
afterAll(async () => {
  await tap?.stop();
});

describe('POST /api/requests', () => {
  it('accepts an anonymous request: 201 with the request, address trimmed, status requested', async () => {
    const address = uniqueAddress();
    const res = await api('POST', '/api/requests', {
      body: { address: `   ${address}  `, url: 'https://listing.example/123', notes: ' corner lot ' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.request).sort()).toEqual(WITH_PROPERTY);
    expect(res.body.request).toMatchObject({
      address,
      url: 'https://listing.example/123',
      notes: 'corner lot',
      status: 'requested',
      report_path: null,
    });
    expect(res.body.duplicate_of).toBeUndefined();
    expect(new Date(res.body.request.created_at).toISOString()).toBe(res.body.request.created_at);
  });

  it('treats empty url and notes as not given', async () => {
    const { request } = await submit({ address: uniqueAddress(), url: '', notes: '   ' });
    expect(request).toMatchObject({ url: null, notes: null });
  });

  it.each([
    ['a blank address', { address: '    ' }, /address/i],
    ['a missing address', { notes: 'x' }, /address/i],
    ['a url that is not http(s)', { address: '1 Main St', url: 'javascript:alert(1)' }, /url/i],
    ['a url that is not a link at all', { address: '1 Main St', url: 'not a url' }, /url/i],
    ['notes over 2000 characters', { address: '1 Main St', notes: 'x'.repeat(2001) }, /notes/i],
    ['an unknown field', { address: '1 Main St', status: 'covered' }, /status/i],
  ])('refuses %s with 400', async (_what, body, message) => {
    const res = await api('POST', '/api/requests', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('answers a repeat by the same requester within 30 days with 200, their earlier request and duplicate_of', async () => {
    const user = await session();
    const address = uniqueAddress();
    const first = await submit({ address }, user.token);
    const again = await api('POST', '/api/requests', {
      body: { address: `  ${address.toUpperCase()} ` },
      token: user.token,
    });
    expect(again.status).toBe(200);
    expect(again.body.duplicate_of).toBe(first.request.id);
    expect(again.body.request).toMatchObject({ id: first.request.id, property_id: first.request.property_id });
    const third = await api('POST', '/api/requests', {
      body: { address: address.replace(' Street,', ' St.,') },
      token: user.token,
    });
    expect(third.status).toBe(200);
    expect(third.body.duplicate_of).toBe(first.request.id);
    // Nothing new was stored: their list holds the one request.
    const mine = await api('GET', '/api/requests/mine', { token: user.token });
    expect(mine.body.requests.map((r: { id: string }) => r.id)).toEqual([first.request.id]);
  });

  it('finds the caller’s own earlier request even when someone else asked about the property after them', async () => {
    const user = await session();
    const address = uniqueAddress();
    const first = await submit({ address }, user.token);
    const other = await submit({ address: address.toLowerCase() }, (await session()).token);
    expect(other.duplicate_of).toBeUndefined();
    expect(other.request.property_id).toBe(first.request.property_id);
    const again = await api('POST', '/api/requests', { body: { address }, token: user.token });
    expect(again.status).toBe(200);
    expect(again.body.duplicate_of).toBe(first.request.id);
  });

  it("tells nobody of someone else's request for the address: not an anonymous caller, not another user", async () => {
    const address = uniqueAddress();
    const first = await submit({ address }, (await session()).token);
    const anonymous = await submit({ address });
    expect(anonymous.duplicate_of).toBeUndefined();
    expect(JSON.stringify(anonymous)).not.toContain(first.request.id);
    const other = await submit({ address }, (await session()).token);
    expect(other.duplicate_of).toBeUndefined();
  });

  it('does not call an address a duplicate once the earlier request is older than 30 days', async () => {
    const user = await session();
    const address = uniqueAddress();
    const first = await submit({ address }, user.token);
    const db = await requestsDb();
    await db
      .collection('properties')
      .updateOne(
        { _id: first.request.property_id as never },
        { $set: { 'requests.0.at': new Date(Date.now() - 31 * 24 * 3600 * 1000) } },
      );
    const later = await submit({ address }, user.token);
    expect(later.duplicate_of).toBeUndefined();
    expect(later.request.property_id).toBe(first.request.property_id);
  });

  it('publishes request-submitted with the requester when signed in', async () => {
    const user = await session();
    const { request } = await submit({ address: uniqueAddress() }, user.token);
    const event = await tap.waitFor<{ request: { id: string }; requester: unknown }>(
      Topics.requestSubmitted,
      (d) => d.request.id === request.id,
    );
    expect(event.envelope.data.requester).toEqual({ userId: user.userId, email: user.email });
    expect(event.key).toBe(request.id);
    const anonymous = await submit({ address: uniqueAddress() });
    const anonEvent = await tap.waitFor<{ request: { id: string }; requester: unknown }>(
      Topics.requestSubmitted,
      (d) => d.request.id === anonymous.request.id,
    );
    expect(anonEvent.envelope.data.requester).toBeNull();
  });
});

describe('GET /api/requests/covered', () => {
  it("lists covered requests only, most recently completed first, without file links or requesters' notes", async () => {
    const older = await coveredRequest(admin, { notes: 'private note: gate code 4321' }, (await session()).token);
    const newer = await coveredRequest(admin);
    const pending = (await submit({ address: uniqueAddress() })).request.id;
    const res = await api('GET', '/api/requests/covered');
    expect(res.status).toBe(200);
    const ids = res.body.properties.map((p: { id: string }) => p.id);
    expect(ids.indexOf(newer)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(ids).not.toContain(pending);
    expect(JSON.stringify(res.body)).not.toContain('gate code');
    // Signed in, the same: the list is public whoever asks.
    const signedIn = await api('GET', '/api/requests/covered', { token: (await session()).token });
    expect(JSON.stringify(signedIn.body)).not.toContain('gate code');
    for (const p of res.body.properties) {
      expect(p.notes).toBeNull();
      expect(p.status).toBe('covered');
      expect([p.report_path, p.strategy_path, p.school_report_path, p.neighborhood_report_path]).toEqual([
        null,
        null,
        null,
        null,
      ]);
    }
  });

  it('shows a change at once (the cached list is invalidated), both into and out of covered', async () => {
    // Other test files cover requests at the same time: order is checked against our own.
    const earlier = await coveredRequest(admin);
    const id = await coveredRequest(admin);
    const listed = async () =>
      ((await api('GET', '/api/requests/covered')).body.properties as { id: string }[]).map((p) => p.id);
    const aheadOfEarlier = (ids: string[]) => ids.indexOf(id) >= 0 && ids.indexOf(id) < ids.indexOf(earlier);
    expect(aheadOfEarlier(await listed())).toBe(true);
    await setStatus(admin, id, 'in_progress');
    expect(await listed()).not.toContain(id);
    // Covered again: completed most recently, so ahead of the earlier one again.
    await setStatus(admin, id, 'covered');
    expect(aheadOfEarlier(await listed())).toBe(true);
  });

  it('is served again by the gateway while nothing changed, and fetched anew after a change', async () => {
    await coveredRequest(admin);
    // Other test files cover requests at the same time, each change a new generation: a hit needs
    // two calls with no change between them, which a few tries see.
    const hit = await eventually(
      async () => {
        await api('GET', '/api/requests/covered');
        return (await api('GET', '/api/requests/covered')).headers.get('x-cache') === 'hit';
      },
      10_000,
      'two calls in a row with no change between them, the second a hit',
    );
    expect(hit).toBe(true);
    const id = await coveredRequest(admin);
    const after = await api('GET', '/api/requests/covered');
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(after.body.properties.map((p: { id: string }) => p.id)).toContain(id);
    expect(after.headers.get('x-request-id')).toBeTruthy();
    expect(after.headers.get('x-cache-generation')).toBeNull();
    // Compressed for browsers that accept it, the same list.
    const br = await fetch(`${testEnv().gatewayUrl}/api/requests/covered`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(((await br.json()) as typeof after.body).properties.map((p: { id: string }) => p.id)).toContain(id);
    // A page asked for with a query string always goes to the service.
    expect((await api('GET', '/api/requests/covered?limit=5')).headers.get('x-cache')).toBeNull();
  });

  it('pages with limit and next_cursor', async () => {
    const ids = [await coveredRequest(admin), await coveredRequest(admin), await coveredRequest(admin)].reverse();
    // The list follows a covering in its after-step, which the consumer finishes when the call
    // met a slow dependency (a loaded machine): wait until the newest is on top.
    const first = await eventually(
      async () => {
        const page = await api('GET', '/api/requests/covered?limit=2');
        return page.body.properties?.[0]?.id === ids[0] ? page : null;
      },
      15_000,
      'the newest covered property on top',
    );
    expect(first.body.properties.map((p: { id: string }) => p.id)).toEqual(ids.slice(0, 2));
    expect(first.body.next_cursor).toMatch(/^\d+$/);
    const second = await api('GET', `/api/requests/covered?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.properties[0].id).toBe(ids[2]);
    expect((await api('GET', '/api/requests/covered?limit=0')).status).toBe(400);
  });
});

describe('GET /api/requests/mine', () => {
  it('is 401 without a token', async () => {
    expect((await api('GET', '/api/requests/mine')).status).toBe(401);
  });

  it("lists the caller's own requests, newest first, with live status and no file links", async () => {
    const user = await session();
    const a = (await submit({ address: uniqueAddress() }, user.token)).request.id;
    const b = (await submit({ address: uniqueAddress() }, user.token)).request.id;
    await submit({ address: uniqueAddress() }, (await session()).token);
    await setStatus(admin, a, 'in_progress');
    const res = await api('GET', '/api/requests/mine', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.requests.map((r: { id: string }) => r.id)).toEqual([b, a]);
    expect(res.body.requests[1].status).toBe('in_progress');
    expect(res.body.requests[1].report_path).toBeNull();
  });
});

describe('GET /api/requests/:id/view', () => {
  it('is 401 without a token', async () => {
    expect((await api('GET', `/api/requests/${await coveredRequest(admin)}/view`)).status).toBe(401);
  });

  it('is 404 for an unknown request and for one that is not covered, and costs nothing', async () => {
    const user = await session();
    expect((await api('GET', '/api/requests/000000000000000000000000/view', { token: user.token })).status).toBe(404);
    const pending = (await submit({ address: uniqueAddress() })).request.id;
    const res = await api('GET', `/api/requests/${pending}/view`, { token: user.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/not found/i);
    expect((await api('GET', '/api/users/stats', { token: user.token })).body.credits).toBe(10);
  });

  it('answers the request, records the view and publishes report-viewed', async () => {
    const user = await session();
    const id = await coveredRequest(admin, { notes: 'pool' });
    const res = await api('GET', `/api/requests/${id}/view`, { token: user.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.request).sort()).toEqual(WITH_PROPERTY);
    // The requester's notes are theirs and the staff's: another user sees none.
    expect(res.body.request).toMatchObject({ id, status: 'covered', notes: null });
    const event = await tap.waitFor<{ requestId: string; userId: string; charged: boolean }>(
      Topics.reportViewed,
      (d) => d.requestId === id && d.userId === user.userId,
    );
    expect(event.envelope.data.charged).toBe(true);
  });

  it('costs the requester nothing for their own report, shows them their notes, and keeps it in their history', async () => {
    const requester = await session();
    const id = await coveredRequest(admin, { notes: 'check schools and flood risk' }, requester.token);
    const res = await api('GET', `/api/requests/${id}/view`, { token: requester.token });
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({ id, notes: 'check schools and flood risk' });
    expect(res.body.request.report_path).toMatch(/^\/api\/files\//);
    const event = await tap.waitFor<{ requestId: string; userId: string; charged: boolean }>(
      Topics.reportViewed,
      (d) => d.requestId === id && d.userId === requester.userId,
    );
    expect(event.envelope.data.charged).toBe(false);
    expect((await api('GET', '/api/users/stats', { token: requester.token })).body).toMatchObject({
      credits: 10,
      totalAccess: 1,
    });
    const history = await api('GET', '/api/users/access-history', { token: requester.token });
    expect(history.body.history.map((h: { request_id: string }) => h.request_id)).toEqual([id]);
  });

  it('charges nothing for a report covered before files were required, and does not list it', async () => {
    const { request } = await submit({ address: uniqueAddress() });
    // Legacy data: covered with no report file (the API no longer allows it).
    const db = await requestsDb();
    const seq = await db
      .collection<{ _id: string; value: number }>('counters')
      // Upserted: properties number their own list, so no request counter may exist yet. A missing
      // value would store `coveredSeq: null`, which the embedded server's sparse unique index
      // then matches for every request without one (each later update of those would fail).
      .findOneAndUpdate({ _id: 'covered' }, { $inc: { value: 1 } }, { returnDocument: 'after', upsert: true });
    expect(seq?.value).toBeGreaterThan(0);
    await db
      .collection('requests')
      .updateOne({ _id: request.id as never }, { $set: { status: 'covered', coveredSeq: seq?.value } });
    const user = await session();
    const res = await api('GET', `/api/requests/${request.id}/view`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.request.report_path).toBeNull();
    expect((await api('GET', '/api/users/stats', { token: user.token })).body.credits).toBe(10);
    // A later covering drops every kept copy of the list; the legacy one sits just below it.
    const later = await coveredRequest(admin);
    const listed = await api('GET', '/api/requests/covered');
    const ids = listed.body.properties.map((p: { id: string }) => p.id);
    expect(ids[0]).toBe(later);
    expect(ids).not.toContain(request.id);
  });
});

describe('GET /api/admin/requests/:id', () => {
  it('answers the request itself, not wrapped', async () => {
    const { request } = await submit({ address: uniqueAddress(), notes: 'n' });
    const res = await api('GET', `/api/admin/requests/${request.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...WITH_PROPERTY, 'requesters_count', 'requests_count'].sort());
    expect(res.body).toMatchObject({ id: request.id, notes: 'n', status: 'requested', requests_count: 1 });
  });

  it('is 404 for an unknown id', async () => {
    expect((await api('GET', '/api/admin/requests/nope', { token: admin.token })).status).toBe(404);
  });
});

describe('PUT /api/admin/requests/:id/status', () => {
  it('moves any status to any other, recording who and when, and publishes the change', async () => {
    const { request } = await submit({ address: uniqueAddress() }, (await session()).token);
    await uploadReport(admin, request.id);
    for (const status of ['covered', 'requested', 'in_progress', 'covered'] as const) {
      const res = await api('PUT', `/api/admin/requests/${request.id}/status`, {
        token: admin.token,
        body: { status },
      });
      expect(res.status).toBe(200);
      expect(res.body.request).toMatchObject({ id: request.id, status });
    }
    const stored = await (await requestsDb()).collection('requests').findOne({ _id: request.id as never });
    expect(stored?.status_history.map((h: { from: string; to: string }) => `${h.from}>${h.to}`)).toEqual([
      'requested>covered',
      'covered>requested',
      'requested>in_progress',
      'in_progress>covered',
    ]);
    expect(stored?.status_history[0].by).toEqual({ userId: admin.userId, email: admin.email });
    expect(stored?.status_history[0].at).toBeInstanceOf(Date);
    // Delivery is at least once, so the tap may see an event twice: count distinct event ids.
    const changes = await eventually(
      async () => {
        const seen = new Map(
          tap
            .all<{ requestId: string; from: string; to: string }>(
              Topics.requestStatusChanged,
              (d) => d.requestId === request.id,
            )
            .map((e) => [e.envelope.id, `${e.envelope.data.from}>${e.envelope.data.to}`]),
        );
        return seen.size === 4 ? [...seen.values()] : null;
      },
      30_000,
      'four status changes',
    );
    expect(changes.sort()).toEqual(
      ['requested>covered', 'covered>requested', 'requested>in_progress', 'in_progress>covered'].sort(),
    );
    // request-covered (the "ready" email) only the first time: each travels in the same write as
    // its status change, all four of which were seen above.
    const covered = tap.all<{ request: { id: string }; requester: unknown }>(
      Topics.requestCovered,
      (d) => d.request.id === request.id,
    );
    expect(new Set(covered.map((e) => e.envelope.id)).size).toBe(1);
    expect(covered[0]?.envelope.data.requester).not.toBeNull();
  });

  it('refuses Covered with 409 naming the missing report file, and leaves the status as it was', async () => {
    const { request } = await submit({ address: uniqueAddress() });
    await setStatus(admin, request.id, 'in_progress');
    const res = await api('PUT', `/api/admin/requests/${request.id}/status`, {
      token: admin.token,
      body: { status: 'covered' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/main report file/i);
    const stored = await api('GET', `/api/admin/requests/${request.id}`, { token: admin.token });
    expect(stored.body.status).toBe('in_progress');
    await uploadReport(admin, request.id);
    expect((await setStatus(admin, request.id, 'covered')).status).toBe('covered');
  });

  it('refuses a status that is not one of the three with 400', async () => {
    const { request } = await submit({ address: uniqueAddress() });
    for (const status of ['done', '', 'Covered']) {
      const res = await api('PUT', `/api/admin/requests/${request.id}/status`, {
        token: admin.token,
        body: { status },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/status/);
    }
  });

  it('is 404 for an unknown request', async () => {
    const res = await api('PUT', '/api/admin/requests/000000000000000000000000/status', {
      token: admin.token,
      body: { status: 'covered' },
    });
    expect(res.status).toBe(404);
  });
});

describe('GET /api/admin/recent-requests', () => {
  it('lists the newest requests first with id, address, created_at, notes and status', async () => {
    const a = await submit({ address: uniqueAddress(), notes: 'first' });
    const b = await submit({ address: uniqueAddress() });
    const res = await api('GET', '/api/admin/recent-requests', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.requests.length).toBeLessThanOrEqual(20);
    const ids = res.body.requests.map((r: { id: string }) => r.id);
    expect(ids.indexOf(b.request.id)).toBeLessThan(ids.indexOf(a.request.id));
    const entry = res.body.requests.find((r: { id: string }) => r.id === a.request.id);
    expect(entry).toEqual({
      id: a.request.id,
      address: a.request.address,
      created_at: a.request.created_at,
      notes: 'first',
      status: 'requested',
    });
  });
});

describe('GET /api/admin/dashboard', () => {
  const stats = async () => (await api('GET', '/api/admin/dashboard', { token: admin.token })).body.stats;

  it('answers every counter', async () => {
    const res = await api('GET', '/api/admin/dashboard', { token: admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.stats).sort()).toEqual(
      [
        'covered',
        'inProgress',
        'properties',
        'requested',
        'total',
        'totalAccess',
        'totalUsers',
        'verifiedUsers',
      ].sort(),
    );
  });

  it('counts requests by status and report views as they change', async () => {
    const before = await stats();
    const { request } = await submit({ address: uniqueAddress() });
    const second = (await submit({ address: uniqueAddress() })).request.id;
    await setStatus(admin, second, 'in_progress');
    await uploadReport(admin, request.id);
    await setStatus(admin, request.id, 'covered');
    await api('GET', `/api/requests/${request.id}/view`, { token: (await session()).token });
    const after = await stats();
    expect(after.total - before.total).toBe(2);
    expect(after.requested - before.requested).toBe(0);
    expect(after.inProgress - before.inProgress).toBe(1);
    expect(after.covered - before.covered).toBe(1);
    expect(after.totalAccess - before.totalAccess).toBe(1);
    expect(after.total).toBe(after.requested + after.inProgress + after.covered);
  });

  it('finishes the follow-up effects of a submission whose service died right after the write', async () => {
    const before = await stats();
    const user = await session();
    const id = new ObjectId().toHexString();
    const address = uniqueAddress();
    const createdAt = new Date();
    const event = {
      id: randomUUID(),
      type: Topics.requestSubmitted,
      occurredAt: createdAt.toISOString(),
      source: 'requests',
      correlationId: 'crash-test',
      data: {
        request: { id, address, url: null, notes: null, status: 'requested', created_at: createdAt.toISOString() },
        requester: { userId: user.userId, email: user.email },
      },
    };
    // What the service had written when it died: the request with its pending mark; no counter,
    // no list entry, no property yet. Then the relay (after the restart) publishes the event.
    await (await requestsDb()).collection('requests').insertOne({
      _id: id as never,
      seq: 1e12 + Math.floor(Math.random() * 1e9),
      address,
      addressKey: address.toLowerCase(),
      url: null,
      notes: null,
      status: 'requested',
      created_at: createdAt,
      updated_at: createdAt,
      completed_at: null,
      requester: { userId: user.userId, email: user.email },
      files: {},
      status_history: [],
      pending: [event.id],
      outbox: [],
    });
    const producer = testKafka().producer();
    await producer.connect();
    await producer.send({ topic: Topics.requestSubmitted, messages: [{ key: id, value: JSON.stringify(event) }] });
    await producer.disconnect();

    await eventually(
      async () =>
        ((await (await requestsDb()).collection('requests').findOne({ _id: id as never }))?.pending ?? ['x']).length ===
        0,
      20_000,
      'the pending mark to clear',
    );
    const after = await stats();
    expect(after.total - before.total).toBe(1);
    expect(after.requested - before.requested).toBe(1);
    const mine = await api('GET', '/api/requests/mine', { token: user.token });
    expect(mine.body.requests.map((r: { id: string }) => r.id)).toEqual([id]);
    // Its property was found and it was listed under it: the same user asking again is told of it.
    const again = await api('POST', '/api/requests', { body: { address }, token: user.token });
    expect(again.status).toBe(200);
    expect(again.body.duplicate_of).toBe(id);
  });
});

/**
 * The first answer past a budget the test filled in Redis. The service learns the shared count
 * when it next adds its own to Redis (kit's SharedCounts, every 100 ms, so that no request waits
 * on Redis): a request sent before that may still pass; a refusal must come within a few more.
 */
async function untilRefused<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  let answer = await send();
  for (let extra = 0; answer.status === 201 && extra < 5; extra += 1) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    answer = await send();
  }
  return answer;
}

describe('the anonymous request allowance', () => {
  it('answers 429 with Retry-After to the request over the hourly allowance of one address; others and signed-in users go on', async () => {
    const from = freshClientAddress();
    await anonymousRequestsSent(from, TEST_ANON_REQUESTS_PER_HOUR - 5);
    for (let i = 0; i < 5; i++) {
      expect((await api('POST', '/api/requests', { body: { address: uniqueAddress() }, from })).status).toBe(201);
    }
    const over = await untilRefused(() => api('POST', '/api/requests', { body: { address: uniqueAddress() }, from }));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(over.body.error).toMatch(/sign in to request more/);

    expect((await api('POST', '/api/requests', { body: { address: uniqueAddress() } })).status).toBe(201);
    const user = await session();
    const signedIn = await api('POST', '/api/requests', {
      body: { address: uniqueAddress() },
      token: user.token,
      from,
    });
    expect(signedIn.status).toBe(201);
  });
});

describe('the per-account ceiling of coverage requests', () => {
  it('answers 429 with Retry-After and the wait in words past the hourly ceiling, from any address; other accounts go on', async () => {
    const user = await session();
    await accountRequestsSent(user.userId, TEST_ACCOUNT_REQUESTS_PER_HOUR - 1);
    const send = (token: string, from?: string) =>
      api('POST', '/api/requests', { body: { address: uniqueAddress() }, token, ...(from ? { from } : {}) });
    // A request refused as malformed (no address) is not counted against the ceiling.
    expect((await api('POST', '/api/requests', { body: { address: '' }, token: user.token })).status).toBe(400);
    expect((await send(user.token)).status).toBe(201);

    const over = await untilRefused(() => send(user.token));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(over.body).toEqual({
      error: expect.stringMatching(
        /^You have asked for 1000 properties in the past hour, the most an account may\. Please try again in \d+ minutes\.$/,
      ),
      code: 'RATE_LIMITED',
    });
    // Counted per account: another address does not reset it.
    expect((await send(user.token, freshClientAddress())).status).toBe(429);

    const other = await session();
    expect((await send(other.token)).status).toBe(201);
  });
});
