import { randomUUID } from 'node:crypto';
import { Topics } from '@homereport/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { EventTap } from '../../../test/support/events.js';
import { type GraphBehaviour, GraphStandIn, deletedLead, metaSignature } from '../../../test/support/meta.js';
import {
  type CreatedKey,
  adminToken,
  allLeads,
  createKey,
  leadDocId,
  leadSentinels,
  nothingLeftToPublish,
  withLeadsDb,
} from './support/leads.js';

// Meta Lead Ads through the gateway (api.md "Beyond the spec"), with the Graph API's lead
// endpoint played by a local stand-in on the port the stack's META_GRAPH_URL names.

const meta = () => testEnv().meta;
const graph = new GraphStandIn();
const tap = new EventTap([Topics.leadReceived]);
let admin: string;
/** The key of sentinel leads only (see leadSentinels). */
let sentinelKey: CreatedKey;

beforeAll(async () => {
  await graph.start(meta().graphPort);
  await tap.start();
  admin = (await adminToken()).token;
  sentinelKey = await createKey(admin);
});
afterAll(async () => {
  await tap.stop();
  await graph.stop();
});

/** A fresh leadgen id (digits, as Meta's are) that the stand-in answers with `behaviour`. */
function leadgen(behaviour: GraphBehaviour = goodLead()): string {
  const id = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  graph.answer(id, behaviour);
  return id;
}

function goodLead(email = `${randomUUID().slice(0, 8)}@meta-lead.example`): GraphBehaviour & { kind: 'lead' } {
  return {
    kind: 'lead',
    fieldData: [
      { name: 'full_name', values: ['Riley Ann Moss'] },
      { name: 'email', values: [email] },
      { name: 'phone_number', values: ['+15555550142'] },
      { name: 'zip_code', values: ['78701'] },
    ],
  };
}

/** Meta's leadgen change notification for these leads, as its documentation shows it. */
function delivery(...leadgenIds: string[]) {
  return {
    object: 'page',
    entry: [
      {
        id: '153125381133',
        time: 1764072000,
        changes: leadgenIds.map((leadgen_id) => ({
          field: 'leadgen',
          value: {
            leadgen_id,
            page_id: '153125381133',
            form_id: '567567567567',
            adgroup_id: '345345345345',
            ad_id: '234234234234',
            created_time: 1764072000,
          },
        })),
      },
    ],
  };
}

/** Posts `text` as Meta does; signed with the app secret unless a signature (or none) is given. */
function deliver(text: string, signature: string | null = metaSignature(text, meta().appSecret)): Promise<ApiResponse> {
  return api('POST', '/api/webhooks/meta', {
    raw: text,
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
    },
  });
}

const storedCount = (leadgenId: string) =>
  withLeadsDb((db) => db.collection('leads').countDocuments({ _id: leadDocId(meta().keyName, leadgenId) as never }));

const metaLeads = () => allLeads(admin, { key_name: meta().keyName });

describe('GET /api/webhooks/meta, the verification handshake', () => {
  const handshake = (query: Record<string, string>) => api('GET', `/api/webhooks/meta?${new URLSearchParams(query)}`);

  it('answers 200 text/plain with hub.challenge when the mode is subscribe and the verify token matches', async () => {
    const res = await handshake({
      'hub.mode': 'subscribe',
      'hub.verify_token': meta().verifyToken,
      'hub.challenge': '1158201444',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    // The body is the challenge itself, not JSON-quoted (the test client would parse "…" to a string).
    expect(res.body).toBe(1158201444);
  });

  it.each([
    ['a wrong verify token', { 'hub.mode': 'subscribe', 'hub.verify_token': 'not-the-token', 'hub.challenge': '1' }],
    ['no verify token', { 'hub.mode': 'subscribe', 'hub.challenge': '1' }],
    ['another mode', { 'hub.mode': 'unsubscribe', 'hub.verify_token': 'VERIFY', 'hub.challenge': '1' }],
  ])('answers 403 for %s, without echoing the challenge', async (_what, query) => {
    const q = Object.fromEntries(
      Object.entries(query).map(([k, v]) => [k, v === 'VERIFY' ? meta().verifyToken : v]),
    ) as Record<string, string>;
    const res = await handshake(q);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'VERIFY_TOKEN_MISMATCH', error: expect.stringMatching(/verify token/) });
  });
});

describe('POST /api/webhooks/meta, the signature', () => {
  it('answers 401 to a forged signature, reads nothing from Graph and stores nothing', async () => {
    const id = leadgen();
    const text = JSON.stringify(delivery(id));
    const res = await deliver(text, metaSignature(text, 'not-the-app-secret'));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', error: expect.stringMatching(/X-Hub-Signature-256/) });
    expect(graph.callsFor(id)).toHaveLength(0);
    expect(await storedCount(id)).toBe(0);
  });

  it('answers 401 without a signature', async () => {
    const id = leadgen();
    const res = await deliver(JSON.stringify(delivery(id)), null);
    expect(res.status).toBe(401);
    expect(graph.callsFor(id)).toHaveLength(0);
  });

  it('answers 401 when the body is not the bytes that were signed (the same JSON spaced differently)', async () => {
    const id = leadgen();
    const signed = JSON.stringify(delivery(id));
    const res = await deliver(JSON.stringify(delivery(id), null, 2), metaSignature(signed, meta().appSecret));
    expect(res.status).toBe(401);
    expect(graph.callsFor(id)).toHaveLength(0);
  });

  it('checks the exact bytes: a signed body with spacing and non-ASCII text is accepted', async () => {
    const id = leadgen({
      kind: 'lead',
      fieldData: [
        { name: 'full_name', values: ['Zoë Ångström'] },
        { name: 'email', values: [`${randomUUID().slice(0, 8)}@meta-lead.example`] },
      ],
    });
    const text = `{ "object" : "page",\n  "entry": ${JSON.stringify(delivery(id).entry, null, 1)}, "note": "ünïcödé" }`;
    const res = await deliver(text);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await storedCount(id)).toBe(1);
  });
});

describe('POST /api/webhooks/meta, a good delivery', () => {
  it('reads each lead from Graph with the page token and stores it under the Meta key, shown with that source', async () => {
    const lead = goodLead();
    const id = leadgen(lead);
    const res = await deliver(JSON.stringify(delivery(id)));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ok: true });

    expect(graph.callsFor(id)).toEqual([
      { leadgenId: id, accessToken: meta().pageAccessToken, version: meta().graphVersion },
    ]);
    const listed = (await metaLeads()).find((l) => l.lead_id === id);
    expect(listed).toMatchObject({
      lead_id: id,
      key_name: meta().keyName,
      first_name: 'Riley',
      last_name: 'Ann Moss',
      email: lead.fieldData[1]?.values[0],
      phone: '+15555550142',
      form_id: '567567567567',
      ad_group_id: '345345345345',
      lead_status: 'new',
      is_test: false,
    });
    // The other answers are kept with the lead, in its raw copy.
    const stored = await withLeadsDb((db) =>
      db.collection('leads').findOne({ _id: leadDocId(meta().keyName, id) as never }),
    );
    expect(JSON.parse(stored?.raw)).toMatchObject({
      platform: 'meta',
      ad_id: '234234234234',
      extra: { zip_code: '78701' },
    });

    // The key is in the admin's list (so the Leads tab can filter by it), and active.
    const keys = await api('GET', '/api/admin/webhook-keys', { token: admin });
    expect(keys.body.keys).toContainEqual(expect.objectContaining({ key_name: meta().keyName, is_active: true }));
  });

  it('publishes lead-received for the lead, like any other inbound lead', async () => {
    const id = leadgen();
    expect((await deliver(JSON.stringify(delivery(id)))).status).toBe(200);
    const seen = await tap.waitFor<Record<string, unknown>>(Topics.leadReceived, (d) => d.lead_id === id);
    expect(seen.envelope.source).toBe('leads');
    expect(seen.envelope.data).toMatchObject({ lead_id: id, key_name: meta().keyName, first_name: 'Riley' });
  });

  it('stores a replayed delivery once and announces it once', async () => {
    const id = leadgen();
    const text = JSON.stringify(delivery(id));
    expect((await deliver(text)).status).toBe(200);
    const again = await deliver(text);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ok: true });
    // The same leadgen_id twice within one delivery is one lead as well.
    expect((await deliver(JSON.stringify(delivery(id, id)))).status).toBe(200);

    expect(await storedCount(id)).toBe(1);
    expect((await metaLeads()).filter((l) => l.lead_id === id)).toHaveLength(1);
    const first = await tap.waitFor<{ lead_id: string }>(Topics.leadReceived, (d) => d.lead_id === id);
    // A second event would be keyed alike, so on the same partition: once nothing is left to
    // publish and a later lead was seen there, it would be in the tap.
    await nothingLeftToPublish([leadDocId(meta().keyName, id)]);
    await leadSentinels(tap, sentinelKey, [first.partition]);
    expect(tap.all<{ lead_id: string }>(Topics.leadReceived, (d) => d.lead_id === id)).toHaveLength(1);
  });

  it('passes over changes that are not leads', async () => {
    const text = JSON.stringify({ object: 'page', entry: [{ id: '1', changes: [{ field: 'feed', value: {} }] }] });
    const res = await deliver(text);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });
});

describe('POST /api/webhooks/meta, bad input', () => {
  it('answers 400 naming the change whose leadgen_id is missing', async () => {
    const res = await deliver(
      JSON.stringify({ object: 'page', entry: [{ changes: [{ field: 'leadgen', value: {} }] }] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/entry\[0\]\.changes\[0\]\.value\.leadgen_id/);
  });

  it('answers 413 to a body over WEBHOOK_BODY_LIMIT_BYTES, signed or not', async () => {
    const id = leadgen();
    const text = JSON.stringify({ ...delivery(id), padding: 'x'.repeat(100 * 1024) });
    expect((await deliver(text)).status).toBe(413);
    expect(graph.callsFor(id)).toHaveLength(0);
  });

  it('answers 400 to a signed body that is not JSON, and to one without entry', async () => {
    expect((await deliver('{"object":')).status).toBe(400);
    const res = await deliver(JSON.stringify({ object: 'page' }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/entry/);
  });
});

describe('POST /api/webhooks/meta when Graph cannot give a lead', () => {
  it('skips a lead Graph refuses with a 4xx (deleted), stores the rest, and answers 200', async () => {
    const gone = leadgen(deletedLead('gone'));
    const good = leadgen();
    const res = await deliver(JSON.stringify(delivery(gone, good)));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await storedCount(gone)).toBe(0);
    expect(await storedCount(good)).toBe(1);
  });

  it('answers 503 on a Graph 5xx so Meta delivers again, and the redelivery stores the lead once', async () => {
    const flaky = leadgen({ kind: 'error', status: 500, code: 2, message: 'An unexpected error has occurred.' });
    const good = leadgen();
    const text = JSON.stringify(delivery(good, flaky));
    const res = await deliver(text);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'GRAPH_UNAVAILABLE', error: expect.stringMatching(/deliver it again/) });
    expect(JSON.stringify(res.body)).not.toMatch(/stack|at .*\.ts/);
    // What could be read is stored already; the failed one is not lost, only not yet here.
    expect(await storedCount(good)).toBe(1);
    expect(await storedCount(flaky)).toBe(0);

    graph.answer(flaky, goodLead());
    expect((await deliver(text)).status).toBe(200);
    expect(await storedCount(flaky)).toBe(1);
    expect(await storedCount(good)).toBe(1);
  });

  it('answers 503, not 500, when Graph does not answer within the deadline, and stores the lead later', async () => {
    const slow = leadgen({ kind: 'hang' });
    const text = JSON.stringify(delivery(slow));
    const res = await deliver(text);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'GRAPH_UNAVAILABLE' });
    expect(await storedCount(slow)).toBe(0);

    graph.answer(slow, goodLead());
    expect((await deliver(text)).status).toBe(200);
    expect(await storedCount(slow)).toBe(1);
  });

  it('answers 503 when Graph refuses the page token (expired), rather than dropping the lead', async () => {
    const id = leadgen({
      kind: 'error',
      status: 400,
      code: 190,
      message: 'Error validating access token: Session has expired.',
    });
    expect((await deliver(JSON.stringify(delivery(id)))).status).toBe(503);
    expect(await storedCount(id)).toBe(0);
  });
});

describe('POST /api/webhooks/meta when an admin switched the Meta source off', () => {
  it('answers 403 while the Meta key is inactive, and stores leads again once it is back on', async () => {
    // Make sure the key exists (the first delivery makes it).
    expect((await deliver(JSON.stringify(delivery(leadgen())))).status).toBe(200);
    const toggle = () =>
      api('PUT', `/api/admin/webhook-keys/${encodeURIComponent(meta().keyName)}/toggle`, { token: admin });
    expect((await toggle()).body.key.is_active).toBe(false);
    try {
      const id = leadgen();
      const res = await deliver(JSON.stringify(delivery(id)));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('SOURCE_INACTIVE');
      expect(await storedCount(id)).toBe(0);
    } finally {
      expect((await toggle()).body.key.is_active).toBe(true);
    }
    const id = leadgen();
    expect((await deliver(JSON.stringify(delivery(id)))).status).toBe(200);
    expect(await storedCount(id)).toBe(1);
  });
});
