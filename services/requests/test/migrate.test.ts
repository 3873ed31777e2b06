import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { collections } from '../src/data/collections.js';
import { CreditsRepository } from '../src/data/credits-repository.js';

/**
 * `npm run migrate` over a database as the service left it before properties: requests without
 * `property_id`, one house spelled three ways (one of them covered), views and credits. Its own
 * database on the run's MongoDB, so the other tests' data is not touched.
 */
const root = new URL('../../..', import.meta.url).pathname;
const dbName = `homereport_migrate_${randomUUID().slice(0, 8)}`;
let client: MongoClient | undefined;
afterAll(async () => {
  await client?.db(dbName).dropDatabase();
  await client?.close();
});

function migrate(...flags: string[]) {
  const run = spawnSync('npx', ['tsx', 'services/requests/src/cli/migrate.ts', ...flags], {
    cwd: root,
    env: { ...process.env, MONGO_URL: testEnv().mongoUrl, MONGO_DB: dbName },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const at = (minute: number) => new Date(Date.UTC(2026, 9, 1, 12, minute));
const report = { key: 'reports/r1/report.pdf', name: 'report.pdf', contentType: 'application/pdf', size: 10 };
const elmReport = { ...report, key: 'reports/r7/report.pdf' };

/** A request document as the service wrote it before properties. */
function legacy(seq: number, address: string, extra: Record<string, unknown> = {}) {
  return {
    _id: `legacy-${seq}`,
    seq,
    address,
    addressKey: address.toLowerCase(),
    url: null,
    notes: null,
    status: 'requested',
    created_at: at(seq),
    updated_at: at(seq),
    completed_at: null,
    requester: { userId: `user-${seq}`, email: `user-${seq}@example.test` },
    files: {},
    status_history: [],
    pending: [],
    outbox: [],
    ...extra,
  };
}

/** Everything the migration may touch, in a stable order, for comparing two runs. */
async function snapshot() {
  const db = (client as MongoClient).db(dbName);
  const all = async (name: string) =>
    (await db.collection(name).find({}).toArray()).sort((a, b) => String(a._id).localeCompare(String(b._id)));
  const properties = (await all('properties')).map((p) => ({
    ...p,
    requests: [...p.requests].sort((a, b) => a.id.localeCompare(b.id)),
  }));
  return {
    requests: await all('requests'),
    properties,
    postings: (await all('covered_postings')).map((p) => ({ ...p, seqs: [...p.seqs].sort() })),
    access: await all('access_log'),
    credits: await all('credit_periods'),
    seen: await all('user_reports'),
    activity: await all('user_activity'),
    stats: await db.collection('stats').findOne({ _id: 'requests' as never }),
  };
}

describe('npm run migrate', () => {
  it('gives stored requests their properties, merges spellings of one address, covers the merged open requests, charges one credit per property, loses nothing, and a second run changes nothing', async () => {
    client = new MongoClient(testEnv().mongoUrl);
    await client.connect();
    const db = client.db(dbName);
    await db.collection('requests').insertMany([
      legacy(1, '8061 Twin St, Denver, CO 80202'),
      legacy(2, '8061 Twin Street, Denver, CO 80202', {
        status: 'covered',
        coveredSeq: 1,
        completed_at: at(30),
        files: { report: { ...report, uploaded_at: at(30) } },
      }),
      legacy(3, '8061 TWIN ST, DENVER, CO 80202'),
      legacy(4, '5 N Oak Ave #4, Austin, TX 78701'),
      legacy(5, '5 N Oak Ave #5, Austin, TX 78701'),
      // One more house asked about twice, both requests covered (each with its own report).
      legacy(6, '12 Elm Rd, Salem, OR 97301', {
        status: 'covered',
        coveredSeq: 2,
        completed_at: at(31),
        files: { report: { ...report, uploaded_at: at(31) } },
      }),
      legacy(7, '12 ELM ROAD, SALEM, OR 97301', {
        status: 'covered',
        coveredSeq: 3,
        completed_at: at(32),
        files: { report: { ...elmReport, uploaded_at: at(32) } },
      }),
    ] as never[]);
    await db.collection('counters').insertMany([
      { _id: 'requests', value: 7 },
      { _id: 'covered', value: 3 },
    ] as never[]);
    // Credits spent per request id: `reader` paid once for the Twin house; `payer` paid twice
    // for the Elm house (one credit per spelling), in their first credit period.
    await db.collection('user_activity').insertMany([
      { _id: 'reader', anchor: at(35), totalAccess: 1, uniqueReports: 1, history: [], requests: [] },
      { _id: 'payer', anchor: at(35), totalAccess: 2, uniqueReports: 2, history: [], requests: [] },
    ] as never[]);
    await db.collection('access_log').insertMany([
      { _id: 'view-1', userId: 'reader', requestId: 'legacy-2', at: at(40), charged: true },
      { _id: 'view-2', userId: 'payer', requestId: 'legacy-6', at: at(41), charged: true },
      { _id: 'view-3', userId: 'payer', requestId: 'legacy-7', at: at(42), charged: true },
    ] as never[]);
    // "Unique reports" by request id: `payer` counted the Elm house twice.
    await db.collection('user_reports').insertMany([
      { _id: 'reader:legacy-2', firstViewId: 'view-1', firstAt: at(40) },
      { _id: 'payer:legacy-6', firstViewId: 'view-2', firstAt: at(41) },
      { _id: 'payer:legacy-7', firstViewId: 'view-3', firstAt: at(42) },
    ] as never[]);
    await db.collection('credit_periods').insertMany([
      { _id: 'reader:0', userId: 'reader', index: 0, credits: 9, opened: ['legacy-2'] },
      { _id: 'payer:0', userId: 'payer', index: 0, credits: 8, opened: ['legacy-6', 'legacy-7'] },
    ] as never[]);

    const first = migrate();
    expect(first.status, first.out).toBe(0);
    expect(first.out).toContain('"requests":7,"properties":4,"filed":7,"covered":2');
    expect(first.out).toContain('cover-merged-requests: {"properties":2,"covered":2}');
    expect(first.out).toContain('credits-per-property: {"periods":2,"refunded":1}');
    expect(first.out).toContain('unique-reports-per-property: {"merged":3,"uncounted":1}');
    const once = await snapshot();

    expect(once.requests).toHaveLength(7);
    const propertyOf = (id: string) => once.requests.find((r) => String(r._id) === id)?.property_id;
    expect(propertyOf('legacy-1')).toEqual(expect.any(String));
    expect(propertyOf('legacy-2')).toBe(propertyOf('legacy-1'));
    expect(propertyOf('legacy-3')).toBe(propertyOf('legacy-1'));
    expect(propertyOf('legacy-4')).not.toBe(propertyOf('legacy-5'));
    const twin = once.properties.find((p) => String(p._id) === propertyOf('legacy-1'));
    expect(twin?.requests.map((e: { id: string }) => e.id)).toEqual(['legacy-1', 'legacy-2', 'legacy-3']);
    expect(twin).toMatchObject({ report: 'legacy-2', coveredSeq: 1 });
    const elmId = propertyOf('legacy-6');
    expect(propertyOf('legacy-7')).toBe(elmId);
    // The Twin house's open requests are covered with its report, shared, each requester told once.
    const request = (id: string) => once.requests.find((r) => String(r._id) === id);
    for (const id of ['legacy-1', 'legacy-2', 'legacy-3']) {
      expect(request(id)).toMatchObject({ status: 'covered', files: { report: { key: report.key, shared: true } } });
      expect(request(id)?.pending ?? []).toEqual([]);
    }
    expect(request('legacy-1')?.status_history.at(-1)).toMatchObject({ from: 'requested', to: 'covered' });
    const covers = (id: string) =>
      request(id)?.outbox.filter((e: { type: string }) => e.type === 'request-covered').length;
    expect([covers('legacy-1'), covers('legacy-3')]).toEqual([1, 1]);
    expect(once.stats).toMatchObject({ properties: 4, covered: 2 });
    // Different houses stay apart and open.
    expect(request('legacy-4')?.status).toBe('requested');
    // Files and views as they were; credits per property: the Elm house's second credit back.
    expect(request('legacy-7')?.files.report.key).toBe(elmReport.key);
    expect(once.access).toHaveLength(3);
    const credits = (id: string) => once.credits.find((p) => String(p._id) === id);
    expect(credits('reader:0')).toMatchObject({ credits: 9, opened: ['legacy-2', propertyOf('legacy-2')] });
    expect(credits('payer:0')).toMatchObject({ credits: 9, opened: ['legacy-6', 'legacy-7', elmId] });
    // "Unique reports" count properties: the Elm house once for `payer`.
    expect(once.seen.map((s) => s._id)).toEqual(
      [`payer:${elmId}`, `reader:${propertyOf('legacy-2')}`].sort((a, b) => a.localeCompare(b)),
    );
    expect(once.activity.map((a) => [a._id, a.uniqueReports])).toEqual([
      ['payer', 1],
      ['reader', 1],
    ]);
    expect(once.postings.map((p) => p._id)).toContain('twin#0');
    // The covered property is found by its ZIP code (GET /api/requests/covered?zip=).
    expect(once.postings.find((p) => String(p._id) === 'zip:80202#0')?.seqs).toEqual([1]);
    expect(first.out).toContain('zip-postings: {"covered":2,"filed":2}');

    // Recorded as done: a check finds nothing pending, a plain run skips it.
    expect(migrate('--check').status).toBe(0);
    expect(migrate().out).toContain('properties: done on');
    // Run again in full: the same database.
    const again = migrate('--again');
    expect(again.status, again.out).toBe(0);
    expect(again.out).toContain('"requests":7,"properties":4,"filed":0,"covered":0');
    expect(again.out).toContain('cover-merged-requests: {"properties":2,"covered":0}');
    expect(again.out).toContain('credits-per-property: {"periods":0,"refunded":0}');
    expect(again.out).toContain('unique-reports-per-property: {"merged":0,"uncounted":0}');
    expect(await snapshot()).toEqual(once);

    // A database covered before the ZIP filter: its ZIP codes are filed by the zip-postings step alone.
    await db.collection('covered_postings').deleteOne({ _id: 'zip:80202#0' as never });
    await db.collection('migrations').deleteOne({ _id: 'zip-postings' as never });
    expect(migrate('--check').status).toBe(3);
    const zips = migrate();
    expect(zips.status, zips.out).toBe(0);
    expect(zips.out).toContain('properties: done on');
    expect(zips.out).toContain('zip-postings: {"covered":2,"filed":2}');
    expect(await snapshot()).toEqual(once);

    // What the service does with it: another spelling of a property paid for is free, not a second credit.
    const charges = new CreditsRepository(collections(db));
    expect(await charges.charge('reader', 0, propertyOf('legacy-3'))).toBe('already-opened');
    expect(await charges.charge('payer', 0, elmId)).toBe('already-opened');
    expect(await charges.creditsLeft('payer', 0)).toBe(9);
  });
});
