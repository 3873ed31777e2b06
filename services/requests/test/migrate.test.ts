import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';

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
    stats: (await db.collection('stats').findOne({ _id: 'requests' as never }))?.properties,
  };
}

describe('npm run migrate', () => {
  it('gives stored requests their properties, merges spellings of one address, loses nothing, and a second run changes nothing', async () => {
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
    ] as never[]);
    await db.collection('counters').insertMany([
      { _id: 'requests', value: 5 },
      { _id: 'covered', value: 1 },
    ] as never[]);
    await db
      .collection('access_log')
      .insertOne({ _id: 'view-1', userId: 'reader', requestId: 'legacy-2', at: at(40), charged: true } as never);
    await db
      .collection('credit_periods')
      .insertOne({ _id: 'reader:0', userId: 'reader', index: 0, credits: 9, opened: ['legacy-2'] } as never);

    const first = migrate();
    expect(first.status, first.out).toBe(0);
    expect(first.out).toContain('"requests":5,"properties":3,"filed":5,"covered":1');
    const once = await snapshot();

    expect(once.requests).toHaveLength(5);
    const propertyOf = (id: string) => once.requests.find((r) => String(r._id) === id)?.property_id;
    expect(propertyOf('legacy-1')).toEqual(expect.any(String));
    expect(propertyOf('legacy-2')).toBe(propertyOf('legacy-1'));
    expect(propertyOf('legacy-3')).toBe(propertyOf('legacy-1'));
    expect(propertyOf('legacy-4')).not.toBe(propertyOf('legacy-5'));
    const twin = once.properties.find((p) => String(p._id) === propertyOf('legacy-1'));
    expect(twin?.requests.map((e: { id: string }) => e.id)).toEqual(['legacy-1', 'legacy-2', 'legacy-3']);
    expect(twin).toMatchObject({ report: 'legacy-2', coveredSeq: 1 });
    // Files, views and credits as they were.
    expect(once.requests.find((r) => String(r._id) === 'legacy-2')?.files.report.key).toBe(report.key);
    expect(once.access).toHaveLength(1);
    expect(once.credits[0]).toMatchObject({ credits: 9, opened: ['legacy-2'] });
    expect(once.stats).toBe(3);
    expect(once.postings.map((p) => p._id)).toContain('twin#0');
    // The covered property is found by its ZIP code (GET /api/requests/covered?zip=).
    expect(once.postings.find((p) => String(p._id) === 'zip:80202#0')?.seqs).toEqual([1]);
    expect(first.out).toContain('zip-postings: {"covered":1,"filed":1}');

    // Recorded as done: a check finds nothing pending, a plain run skips it.
    expect(migrate('--check').status).toBe(0);
    expect(migrate().out).toContain('properties: done on');
    // Run again in full: the same database.
    const again = migrate('--again');
    expect(again.status, again.out).toBe(0);
    expect(again.out).toContain('"requests":5,"properties":3,"filed":0,"covered":0');
    expect(await snapshot()).toEqual(once);

    // A database covered before the ZIP filter: its ZIP codes are filed by the zip-postings step alone.
    await db.collection('covered_postings').deleteOne({ _id: 'zip:80202#0' as never });
    await db.collection('migrations').deleteOne({ _id: 'zip-postings' as never });
    expect(migrate('--check').status).toBe(3);
    const zips = migrate();
    expect(zips.status, zips.out).toBe(0);
    expect(zips.out).toContain('properties: done on');
    expect(zips.out).toContain('zip-postings: {"covered":1,"filed":1}');
    expect(await snapshot()).toEqual(once);
  });
});
