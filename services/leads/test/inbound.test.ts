import { Topics } from '@homereport/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import { EventTap } from '../../../test/support/events.js';
import {
  type CreatedKey,
  adminToken,
  allLeads,
  createKey,
  genericLead,
  googleLead,
  googleLeadRead,
  leadDocId,
  leadSentinels,
  nothingLeftToPublish,
  postLead,
  uniqueLeadId,
  withLeadsDb,
} from './support/leads.js';

const tap = new EventTap([Topics.leadReceived]);
let admin: string;
let key: CreatedKey;
/** The key of sentinel leads only, so no test's lists or counts meet them. */
let sentinelKey: CreatedKey;

beforeAll(async () => {
  await tap.start();
  admin = (await adminToken()).token;
  key = await createKey(admin);
  sentinelKey = await createKey(admin);
});
afterAll(() => tap.stop());

const storedLead = (keyName: string, leadId: string) =>
  withLeadsDb((db) => db.collection('leads').findOne({ _id: leadDocId(keyName, leadId) as never }));

describe('POST /api/webhooks/leads with the generic shape', () => {
  it('stores the lead before answering 200 { ok, lead_id }, as new, and lists it first', async () => {
    const lead = genericLead();
    const res = await postLead(lead, key.secret);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, lead_id: lead.lead_id });

    const stored = await storedLead(key.name, lead.lead_id);
    expect(stored).toMatchObject({ first_name: 'Jamie', email: lead.email, lead_status: 'new', is_test: false });

    const [newest] = await allLeads(admin, { key_name: key.name, limit: '1' });
    // Every field as it was sent (lead_id, names, email, phone, campaign and ad group).
    expect(newest).toMatchObject({ ...lead, lead_status: 'new', key_name: key.name });
    expect(newest.id).toMatch(/^\d+$/);
  });

  it('accepts a lead with a phone and no email, and numbers where strings are expected', async () => {
    const lead_id = uniqueLeadId();
    const res = await postLead({ lead_id, phone: 5550100, campaign_id: 42 }, key.secret);
    expect(res.status).toBe(200);
    expect(await storedLead(key.name, lead_id)).toMatchObject({ phone: '5550100', campaign_id: '42', email: null });
  });

  it.each([
    ['no lead_id', { email: 'a@b.example' }, /missing lead_id/],
    ['no email and no phone', { lead_id: 'x-1', first_name: 'A' }, /missing an email or a phone number/],
    ['nothing', {}, /missing lead_id and an email or a phone number/],
  ])('answers 400 naming what is missing when the lead has %s', async (_what, body, message) => {
    const res = await postLead(body, key.secret);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect(res.body.details.length).toBeGreaterThan(0);
  });

  it('answers 400 for a body that is not JSON or not an object', async () => {
    const broken = await api('POST', '/api/webhooks/leads', {
      raw: '{"lead_id": ',
      headers: { 'content-type': 'application/json', 'x-webhook-key': key.secret },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatch(/not valid JSON/);
    expect((await postLead([genericLead()], key.secret)).status).toBe(400);
  });

  it('answers 415 to a body that is not JSON at all', async () => {
    const res = await api('POST', '/api/webhooks/leads', {
      raw: 'lead_id=1&email=a%40b.example',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-webhook-key': key.secret },
    });
    expect(res.status).toBe(415);
    expect(res.body.error).toEqual(expect.any(String));
  });

  it('answers 413 to a 1 MB body and stores nothing, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const lead = genericLead({ notes: 'x'.repeat(1_000_000) });
      const res = await postLead(lead, key.secret);
      expect(res.status).toBe(413);
      expect(res.body.error).toMatch(/too large/);
      expect(await storedLead(key.name, lead.lead_id)).toBeNull();
    }
  });
});

describe('the webhook key', () => {
  it('is refused with 401 when missing, unknown or inactive', async () => {
    const missing = await postLead(genericLead());
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatch(/webhook key is required/);
    expect((await postLead(genericLead(), 'whk_not-a-real-key')).status).toBe(401);
    expect((await postLead(genericLead(), `${key.secret}x`)).status).toBe(401);

    const inactive = await createKey(admin);
    await api('PUT', `/api/admin/webhook-keys/${encodeURIComponent(inactive.name)}/toggle`, { token: admin });
    const lead = genericLead();
    const res = await postLead(lead, inactive.secret);
    expect(res.status).toBe(401);
    expect(await storedLead(inactive.name, lead.lead_id)).toBeNull();
  });

  it('is checked before the payload: a bad key with a bad lead is 401, not 400', async () => {
    expect((await postLead({}, 'whk_wrong')).status).toBe(401);
  });
});

describe('Google Ads lead form webhook', () => {
  it('maps FULL_NAME to first and last name, reads email, phone and ids, keeps unknown fields raw', async () => {
    const body = googleLead(key.secret, { campaign_id: 'INT64' });
    // An int64 beyond 2^53 as a bare JSON number, as Google sends ids: written into the text,
    // since a JavaScript number could not hold it.
    const raw = JSON.stringify(body).replace('"campaign_id":"INT64"', '"campaign_id":12345678901234567890');
    expect(raw).toContain('12345678901234567890');
    const res = await api('POST', '/api/webhooks/leads', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, lead_id: body.lead_id });

    const stored = await storedLead(key.name, body.lead_id);
    expect(stored).toMatchObject({
      ...googleLeadRead,
      campaign_id: '12345678901234567890',
      gcl_id: 'TeSter-123-gclid',
      is_test: false,
    });
    const kept = JSON.parse(stored?.raw);
    expect(kept.creative_id).toBe(50000000000);
    expect(kept.user_column_data[3]).toMatchObject({ column_id: 'POSTAL_CODE', string_value: '94043' });
    expect(stored?.raw).not.toContain(key.secret);
  });

  it('accepts the key as Google_key (Google’s own test) and marks a test lead', async () => {
    const { google_key: _drop, ...rest } = googleLead(key.secret, { is_test: true });
    const body = { ...rest, Google_key: key.secret };
    const res = await postLead(body);
    expect(res.status).toBe(200);
    const stored = await storedLead(key.name, body.lead_id);
    expect(stored?.is_test).toBe(true);
    const listed = (await allLeads(admin, { key_name: key.name, limit: '5' })).find((l) => l.lead_id === body.lead_id);
    expect(listed.is_test).toBe(true);
  });

  it('reads FIRST_NAME/LAST_NAME, WORK_EMAIL and WORK_PHONE columns', async () => {
    const body = googleLead(key.secret, {
      user_column_data: [
        { column_id: 'FIRST_NAME', string_value: 'Ana' },
        { column_id: 'LAST_NAME', string_value: 'Silva' },
        { column_id: 'WORK_EMAIL', string_value: 'ana@work.example' },
        { column_id: 'WORK_PHONE', string_value: '+15550199' },
      ],
    });
    expect((await postLead(body)).status).toBe(200);
    expect(await storedLead(key.name, body.lead_id)).toMatchObject({
      first_name: 'Ana',
      last_name: 'Silva',
      email: 'ana@work.example',
      phone: '+15550199',
    });
  });
});

describe('a lead posted more than once', () => {
  it('is stored once and answered 200 both times', async () => {
    const lead = genericLead();
    const first = await postLead(lead, key.secret);
    const second = await postLead({ ...lead, first_name: 'Changed' }, key.secret);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual({ ok: true, lead_id: lead.lead_id });
    const listed = (await allLeads(admin, { key_name: key.name })).filter((l) => l.lead_id === lead.lead_id);
    expect(listed).toHaveLength(1);
    expect(listed[0].first_name).toBe('Jamie');
  });

  it('is stored once when ten copies arrive at once, all answered 200, one event, counters moved once', async () => {
    const own = await createKey(admin);
    const lead = genericLead();
    const before = (await api('GET', '/api/admin/leads/stats', { token: admin })).body;
    const answers = await Promise.all(Array.from({ length: 10 }, () => postLead(lead, own.secret)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));

    const listed = await allLeads(admin, { key_name: own.name });
    expect(listed.map((l) => l.lead_id)).toEqual([lead.lead_id]);
    expect(await allLeads(admin, { key_name: own.name, status: 'new' })).toHaveLength(1);
    expect(await withLeadsDb((db) => db.collection('leads').countDocuments({ key_name: own.name }))).toBe(1);

    // Other tests run one file at a time, so nothing else moves the counters meanwhile.
    const after = (await api('GET', '/api/admin/leads/stats', { token: admin })).body;
    expect(after.total - before.total).toBe(1);
    expect(after.new - before.new).toBe(1);

    const first = await tap.waitFor<{ lead_id: string }>(Topics.leadReceived, (d) => d.lead_id === lead.lead_id);
    // A second event would be keyed alike, so on the same partition: once nothing is left to
    // publish and a later lead was seen there, it would be in the tap.
    await nothingLeftToPublish([leadDocId(own.name, lead.lead_id)]);
    await leadSentinels(tap, sentinelKey, [first.partition]);
    expect(tap.all<{ lead_id: string }>(Topics.leadReceived, (d) => d.lead_id === lead.lead_id)).toHaveLength(1);
  });

  it('with another key is another lead', async () => {
    const other = await createKey(admin);
    const lead = genericLead();
    expect((await postLead(lead, key.secret)).status).toBe(200);
    expect((await postLead(lead, other.secret)).status).toBe(200);
    expect((await allLeads(admin, { key_name: other.name })).map((l) => l.lead_id)).toEqual([lead.lead_id]);
  });
});

describe('the lead-received event', () => {
  it('carries the lead, keyed by its id, with the request id as correlation id, and never the key', async () => {
    const lead = genericLead();
    const res = await postLead(lead, key.secret, { 'x-request-id': `lead-test-${lead.lead_id.slice(-8)}` });
    expect(res.status).toBe(200);
    const seen = await tap.waitFor<Record<string, unknown>>(Topics.leadReceived, (d) => d.lead_id === lead.lead_id);
    const [listed] = await allLeads(admin, { key_name: key.name, limit: '1' });
    expect(seen.key).toBe(listed.id);
    expect(seen.envelope.correlationId).toBe(`lead-test-${lead.lead_id.slice(-8)}`);
    expect(seen.envelope.source).toBe('leads');
    expect(seen.envelope.data).toMatchObject({ ...lead, id: listed.id, key_name: key.name, is_test: false });
    expect(JSON.stringify(seen.envelope)).not.toContain(key.secret);
    // The lead keeps its event (JSON text); once published, no batch marker names the lead any
    // more (nothing is left pending for the sweep).
    const id = leadDocId(key.name, lead.lead_id);
    const stored = await withLeadsDb((db) => db.collection('leads').findOne({ _id: id as never }));
    expect(JSON.parse(stored?.event).id).toBe(seen.envelope.id);
    await nothingLeftToPublish([id]);
  });

  it('is not published for a refused lead', async () => {
    const lead = genericLead();
    expect((await postLead(lead, 'whk_wrong')).status).toBe(401);
    // Later leads seen on every partition: an event of the refused lead would be in the tap by now.
    await leadSentinels(tap, sentinelKey);
    expect(tap.all<{ lead_id: string }>(Topics.leadReceived, (d) => d.lead_id === lead.lead_id)).toHaveLength(0);
  });
});
