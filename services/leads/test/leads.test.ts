import { randomUUID } from 'node:crypto';
import { LEAD_FIELDS } from '@homereport/contracts';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { keyTag } from '../src/domain/webhook-keys.js';
import {
  type CreatedKey,
  adminToken,
  allLeads,
  createKey,
  genericLead,
  postLead,
  stats,
  uniqueLeadId,
  withLeadsDb,
} from './support/leads.js';

let admin: string;
let adminEmail: string;
beforeAll(async () => {
  ({ token: admin, email: adminEmail } = await adminToken());
});

/** Posts `count` leads with one key, one after another (so their order is known); oldest first. */
async function seed(key: CreatedKey, count: number, overrides: (i: number) => Record<string, unknown> = () => ({})) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const lead = genericLead({ lead_id: uniqueLeadId(`n${i}`), ...overrides(i) });
    expect((await postLead(lead, key.secret)).status).toBe(200);
    ids.push(lead.lead_id);
  }
  return ids;
}

const setStatus = (token: string, id: string, status: string) =>
  api('PUT', `/api/admin/leads/${id}/status`, { token, body: { status } });

describe('GET /api/admin/leads', () => {
  it('lists newest first in pages that follow the cursor to the end, without repeats', async () => {
    const key = await createKey(admin);
    const posted = await seed(key, 7);
    const first = await api('GET', `/api/admin/leads?key_name=${encodeURIComponent(key.name)}&limit=3`, {
      token: admin,
    });
    expect(first.status).toBe(200);
    expect(first.body.leads.map((l: { lead_id: string }) => l.lead_id)).toEqual(posted.slice(-3).reverse());
    expect(first.body.next_cursor).toEqual(expect.any(String));

    const every = await allLeads(admin, { key_name: key.name, limit: '3' });
    expect(every.map((l) => l.lead_id)).toEqual([...posted].reverse());
  });

  it('lists every key’s leads newest first with no filter, and null next_cursor on the last page', async () => {
    const key = await createKey(admin);
    const posted = await seed(key, 3);
    const res = await api('GET', '/api/admin/leads?limit=3', { token: admin });
    expect(res.body.leads.map((l: { lead_id: string }) => l.lead_id)).toEqual([...posted].reverse());
    const all = await allLeads(admin, { limit: '200' });
    expect(new Set(all.map((l) => l.id)).size).toBe(all.length);
    const ids = all.map((l) => Number(l.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('uses 50 by default, refuses a limit above 200, and refuses a forged cursor', async () => {
    const key = await createKey(admin);
    await seed(key, 2);
    expect((await api('GET', '/api/admin/leads?limit=201', { token: admin })).status).toBe(400);
    expect((await api('GET', '/api/admin/leads?limit=0', { token: admin })).status).toBe(400);
    expect((await api('GET', '/api/admin/leads?limit=abc', { token: admin })).status).toBe(400);
    expect((await api('GET', '/api/admin/leads?cursor=%7B%24gt%3A0%7D', { token: admin })).status).toBe(400);
    expect((await api('GET', '/api/admin/leads?status=won', { token: admin })).status).toBe(400);
    const res = await api('GET', '/api/admin/leads', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.leads.length).toBeLessThanOrEqual(50);
  });

  it('filters by status and by key, also both at once, newest first', async () => {
    const a = await createKey(admin);
    const b = await createKey(admin);
    const aIds = await seed(a, 4);
    const bIds = await seed(b, 3);
    const byLeadId = async (key: CreatedKey) =>
      Object.fromEntries((await allLeads(admin, { key_name: key.name })).map((l) => [l.lead_id, l.id]));
    const aMap = await byLeadId(a);
    const bMap = await byLeadId(b);
    const idOf = (map: Record<string, string>, leadId: string | undefined) => map[leadId as string] as string;
    for (const leadId of [aIds[0], aIds[2]])
      expect((await setStatus(admin, idOf(aMap, leadId), 'qualified')).status).toBe(200);
    expect((await setStatus(admin, idOf(bMap, bIds[1]), 'qualified')).status).toBe(200);
    expect((await setStatus(admin, idOf(aMap, aIds[3]), 'lost')).status).toBe(200);

    const qualifiedA = await allLeads(admin, { key_name: a.name, status: 'qualified', limit: '1' });
    expect(qualifiedA.map((l) => l.lead_id)).toEqual([aIds[2], aIds[0]]);
    const newA = await allLeads(admin, { key_name: a.name, status: 'new' });
    expect(newA.map((l) => l.lead_id)).toEqual([aIds[1]]);
    const qualifiedAll = (await allLeads(admin, { status: 'qualified', limit: '200' })).map((l) => l.lead_id);
    expect(qualifiedAll).toEqual(expect.arrayContaining([aIds[0], aIds[2], bIds[1]]));
    expect(qualifiedAll.indexOf(bIds[1])).toBeLessThan(qualifiedAll.indexOf(aIds[2]));
    expect(qualifiedAll).not.toContain(aIds[1]);
    expect((await allLeads(admin, { key_name: b.name })).map((l) => l.lead_id)).toEqual([...bIds].reverse());
    expect(await allLeads(admin, { key_name: 'no such key' })).toEqual([]);
  });
});

describe('PUT /api/admin/leads/:id/status', () => {
  it('sets the status, records who and when, and moves the counters', async () => {
    const key = await createKey(admin);
    const [leadId] = await seed(key, 1);
    const [lead] = await allLeads(admin, { key_name: key.name });
    const before = await stats(admin);

    const res = await setStatus(admin, lead.id, 'qualified');
    expect(res.status).toBe(200);
    expect(res.body.lead).toMatchObject({
      id: lead.id,
      lead_id: leadId,
      lead_status: 'qualified',
      status_changed_by: adminEmail,
    });
    expect(Date.now() - new Date(res.body.lead.status_changed_at).getTime()).toBeLessThan(60_000);
    let after = await stats(admin);
    expect(after).toEqual({ ...before, new: before.new - 1, qualified: before.qualified + 1 });

    expect((await setStatus(admin, lead.id, 'converted')).status).toBe(200);
    after = await stats(admin);
    expect(after).toEqual({ ...before, new: before.new - 1, converted: before.converted + 1 });
    // contacted and lost count in total only
    expect((await setStatus(admin, lead.id, 'lost')).status).toBe(200);
    expect(await stats(admin)).toEqual({ ...before, new: before.new - 1 });

    const detail = await api('GET', `/api/admin/leads/${lead.id}`, { token: admin });
    expect(detail.status).toBe(200);
    expect(
      detail.body.lead.status_history.map((h: { from: string; to: string; by: { email: string } }) => [
        h.from,
        h.to,
        h.by.email,
      ]),
    ).toEqual([
      ['new', 'qualified', adminEmail],
      ['qualified', 'converted', adminEmail],
      ['converted', 'lost', adminEmail],
    ]);
    const listed = (await allLeads(admin, { key_name: key.name }))[0];
    expect(listed.lead_status).toBe('lost');
  });

  it('setting the status a lead already has changes nothing', async () => {
    const key = await createKey(admin);
    await seed(key, 1);
    const [lead] = await allLeads(admin, { key_name: key.name });
    const before = await stats(admin);
    const res = await setStatus(admin, lead.id, 'new');
    expect(res.status).toBe(200);
    expect(res.body.lead.status_changed_at).toBeNull();
    expect(await stats(admin)).toEqual(before);
  });

  it('counts each change exactly once when admins change one lead at the same moment', async () => {
    const key = await createKey(admin);
    await seed(key, 1);
    const [lead] = await allLeads(admin, { key_name: key.name });
    const before = await stats(admin);
    const targets = ['qualified', 'converted', 'contacted', 'qualified', 'lost', 'converted', 'qualified', 'new'];
    const answers = await Promise.all(targets.map((s) => setStatus(admin, lead.id, s)));
    expect(answers.map((a) => a.status)).toEqual(targets.map(() => 200));

    const detail = (await api('GET', `/api/admin/leads/${lead.id}`, { token: admin })).body.lead;
    // Every recorded change starts where the previous one ended, and the lead ends where the last one did.
    const history = detail.status_history as { from: string; to: string }[];
    for (let i = 1; i < history.length; i++) expect(history[i]?.from).toBe(history[i - 1]?.to);
    const final = detail.lead_status;
    expect(history.at(-1)?.to ?? 'new').toBe(final);

    const after = await stats(admin);
    const expected = { ...before, new: before.new - 1 };
    if (final === 'new' || final === 'qualified' || final === 'converted') expected[final as 'new'] += 1;
    expect(after).toEqual(expected);
    // And the lead is listed under its status, and only there.
    for (const status of ['new', 'contacted', 'qualified', 'converted', 'lost']) {
      const ids = (await allLeads(admin, { key_name: key.name, status })).map((l) => l.id);
      expect(ids, status).toEqual(status === final ? [lead.id] : []);
    }
  });

  it('answers 400 for a status outside the five and 404 for an unknown lead', async () => {
    const key = await createKey(admin);
    await seed(key, 1);
    const [lead] = await allLeads(admin, { key_name: key.name });
    expect((await setStatus(admin, lead.id, 'won')).status).toBe(400);
    expect((await api('PUT', `/api/admin/leads/${lead.id}/status`, { token: admin, body: {} })).status).toBe(400);
    expect((await setStatus(admin, '999999999', 'qualified')).status).toBe(404);
    expect((await setStatus(admin, 'not-an-id', 'qualified')).status).toBe(404);
    expect((await api('GET', '/api/admin/leads/999999999', { token: admin })).status).toBe(404);
  });
});

describe('a status change whose request died half-way', () => {
  it('is finished by the repair sweep: counters and the status list catch up, once', async () => {
    const key = await createKey(admin);
    await seed(key, 1);
    const [lead] = await allLeads(admin, { key_name: key.name });
    const before = await stats(admin);
    const op = randomUUID();
    const at = new Date(Date.now() - 30_000);
    // What changeStatus had written when the process died: the marker, the lead's new positions
    // and the lead's change, but not the counters.
    await withLeadsDb(async (db) => {
      const stored = await db.collection('leads').findOne({ seq: Number(lead.id) });
      const tag = keyTag(key.name);
      await db.collection('lead_status_ops').insertOne({
        _id: op as never,
        leadId: stored?._id,
        from: 'new',
        to: 'qualified',
        at,
      });
      const positions = await db
        .collection('lead_counters')
        .findOneAndUpdate(
          { _id: 'leads' as never },
          { $inc: { 'sl.qualified': 1, [`ksl.${tag}.qualified`]: 1 } },
          { returnDocument: 'before' },
        );
      await db.collection('leads').findOneAndUpdate(
        { sp: stored?.sp },
        {
          $set: {
            lead_status: 'qualified',
            sp: `qualified:${(positions?.sl?.qualified ?? 0) + 1}`,
            ksp: `${tag}:qualified:${(positions?.ksl?.[tag]?.qualified ?? 0) + 1}`,
            status_changed_at: at,
            status_changed_by: 'crashed@example.test',
          },
          $push: {
            status_history: { op, from: 'new', to: 'qualified', by: { id: 'x', email: 'crashed@example.test' }, at },
          } as never,
        },
      );
    });
    expect(await stats(admin)).toEqual(before);

    await eventually(async () => (await stats(admin)).qualified === before.qualified + 1, 30_000, 'the repair sweep');
    expect(await stats(admin)).toEqual({ ...before, new: before.new - 1, qualified: before.qualified + 1 });
    expect((await allLeads(admin, { key_name: key.name, status: 'qualified' })).map((l) => l.id)).toEqual([lead.id]);
    expect(await allLeads(admin, { key_name: key.name, status: 'new' })).toEqual([]);
    expect(await withLeadsDb((db) => db.collection('lead_status_ops').findOne({ _id: op as never }))).toBeNull();
  }, 60_000);
});

describe('GET /api/admin/leads/stats', () => {
  it('counts arrivals in total and new', async () => {
    const before = await stats(admin);
    const key = await createKey(admin);
    await seed(key, 3);
    const after = await stats(admin);
    expect(after).toEqual({ ...before, total: before.total + 3, new: before.new + 3 });
  });
});

describe('GET /api/admin/leads/export.csv', () => {
  it('streams every matching lead as RFC 4180 CSV with a header row; tricky names parse back', async () => {
    const key = await createKey(admin);
    const tricky = 'Smith, "Bobby"\nJr.';
    const posted = await seed(key, 3, (i) => (i === 1 ? { first_name: tricky, last_name: '=HYPERLINK("x")' } : {}));
    const res = await fetch(
      `${testEnv().gatewayUrl}/api/admin/leads/export.csv?key_name=${encodeURIComponent(key.name)}`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="leads-.*\.csv"/);
    const text = await res.text();
    expect(text).toContain('\r\n');
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.lead_id)).toEqual([...posted].reverse());
    const row = rows.find((r) => r.lead_id === posted[1]);
    expect(row?.first_name).toBe(tricky);
    // A formula is defused for spreadsheets, visibly.
    expect(row?.last_name).toBe('\'=HYPERLINK("x")');
    expect(row).toMatchObject({ key_name: key.name, lead_status: 'new', is_test: 'false', phone: '+1 555-0100' });
    // The columns are the Lead's fields as the contract declares them, in that order.
    expect(Object.keys(row ?? {})).toEqual(LEAD_FIELDS);
    expect(LEAD_FIELDS).toHaveLength(16);
  });

  it('quotes every cell and defuses formulas behind spaces and in full-width forms', async () => {
    const key = await createKey(admin);
    const semicolon = "x;=cmd|' /C calc'!A0";
    const [posted] = await seed(key, 1, () => ({ first_name: semicolon, last_name: '  ＝HYPERLINK("http://x")' }));
    const res = await fetch(
      `${testEnv().gatewayUrl}/api/admin/leads/export.csv?key_name=${encodeURIComponent(key.name)}`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    const text = await res.text();
    // A spreadsheet splitting on ';' outside quotes keeps the whole name in one cell.
    expect(text).toContain(`"${semicolon}"`);
    const [header = '', line = ''] = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(header.split(',').every((cell) => /^".*"$/.test(cell))).toBe(true);
    expect(line.startsWith('"')).toBe(true);
    const [row] = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(row?.lead_id).toBe(posted);
    expect(row?.first_name).toBe(semicolon);
    // Names arrive trimmed; a formula behind spaces kept in a cell is csv.test.ts's case.
    expect(row?.last_name).toBe(`'＝HYPERLINK("http://x")`);
  });

  it('defuses a cell behind a zero-width space and one in a small form (issue 38)', async () => {
    const key = await createKey(admin);
    const hidden = '\u200B=HYPERLINK("http://x")';
    await seed(key, 1, () => ({ first_name: hidden, last_name: '﹦1+1' }));
    const res = await fetch(
      `${testEnv().gatewayUrl}/api/admin/leads/export.csv?key_name=${encodeURIComponent(key.name)}`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    const [row] = parse(await res.text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(row?.first_name).toBe(`'${hidden}`);
    expect(row?.last_name).toBe(`'﹦1+1`);
  });

  it('exports a list longer than one page (200) in full, newest first, each lead once', async () => {
    const key = await createKey(admin);
    const leads = Array.from({ length: 230 }, () => genericLead());
    for (let i = 0; i < leads.length; i += 10) {
      const answers = await Promise.all(leads.slice(i, i + 10).map((l) => postLead(l, key.secret)));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    }
    const res = await fetch(
      `${testEnv().gatewayUrl}/api/admin/leads/export.csv?key_name=${encodeURIComponent(key.name)}`,
      {
        headers: { authorization: `Bearer ${admin}` },
      },
    );
    const rows = parse(await res.text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(230);
    expect(new Set(rows.map((r) => r.lead_id))).toEqual(new Set(leads.map((l) => l.lead_id)));
    const ids = rows.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('exports the filtered list only', async () => {
    const key = await createKey(admin);
    const posted = await seed(key, 5);
    const all = await allLeads(admin, { key_name: key.name });
    await setStatus(admin, all[0].id, 'converted');
    await setStatus(admin, all[3].id, 'converted');
    const res = await fetch(
      `${testEnv().gatewayUrl}/api/admin/leads/export.csv?status=converted&key_name=${encodeURIComponent(key.name)}`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    const rows = parse(await res.text(), { bom: true, columns: true }) as Record<string, string>[];
    // A list filtered by status is newest in that status first: posted[1] became converted last.
    expect(rows.map((r) => r.lead_id)).toEqual([posted[1], posted[4]]);
    expect(rows.every((r) => r.lead_status === 'converted' && r.status_changed_by === adminEmail)).toBe(true);

    const everything = await fetch(`${testEnv().gatewayUrl}/api/admin/leads/export.csv`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const allRows = parse(await everything.text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(allRows.length).toBe((await stats(admin)).total);
  });
});
