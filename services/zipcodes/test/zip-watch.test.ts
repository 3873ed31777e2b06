import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZIP_WATCHES_MAX, type ZipAnalysis, type ZipWatchReply } from '@homereport/contracts';
import { SessionStore } from '@homereport/kit';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { api, eventually, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { type Email, emailsTo, linkIn, tokenOf, waitForEmail } from '../../../test/support/mail.js';
import { absentZip, buildAnalysis, freshZip, importAnalyses, zipImport } from './support/zipcodes.js';

interface Watcher {
  userId: string;
  email: string;
  token: string;
}

const redis = new Redis(testEnv().redisUrl);
afterAll(async () => {
  await redis.quit();
});

/** A session made the way auth makes them: the gateway resolves it like any sign-in. */
async function watcher(label = 'watcher'): Promise<Watcher> {
  const userId = `t-${randomUUID()}`;
  const email = uniqueEmail(label);
  const token = await new SessionStore(redis).create({ userId, email, role: 'user' });
  return { userId, email, token };
}

const watched = async (user: Watcher) => {
  const res = await api<ZipWatchReply>('GET', '/api/users/zip-watch', { token: user.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.zips;
};
const watch = (user: Watcher, zip: string) => api('PUT', `/api/users/zip-watch/${zip}`, { token: user.token });
const unwatch = (user: Watcher, zip: string) => api('DELETE', `/api/users/zip-watch/${zip}`, { token: user.token });

/** Imports analyses and expects every one stored. */
async function imported(...records: ZipAnalysis[]) {
  const res = await importAnalyses(records);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.refused).toEqual([]);
}

/** The same analysis with another risk level (and so a change a watcher hears about). */
function withRisk(analysis: ZipAnalysis, riskLevel: 'low' | 'high'): ZipAnalysis {
  const copy = structuredClone(analysis);
  (copy.executiveSummary as { riskLevel: string }).riskLevel = riskLevel;
  return copy;
}

const alertsTo = async (user: Watcher) =>
  (await emailsTo(user.email)).filter((m) => /ZIP .*changed|ZIP codes you watch changed/.test(m.subject));

/** Waits until `user` has `count` alerts, and answers them (oldest first). */
const alertCount = (user: Watcher, count: number) =>
  eventually(
    async () => {
      const alerts = await alertsTo(user);
      return alerts.length >= count ? alerts : undefined;
    },
    30_000,
    `${count} ZIP alert(s) to ${user.email}`,
  );

describe('/api/users/zip-watch', () => {
  it('watches and unwatches ZIP codes that have an analysis, newest first, each once, idempotently', async () => {
    const [a, b] = [buildAnalysis(), buildAnalysis()];
    await imported(a, b);
    const user = await watcher();
    expect(await watched(user)).toEqual([]);
    expect((await watch(user, a.zipCode)).status).toBe(204);
    expect((await watch(user, b.zipCode)).status).toBe(204);
    expect((await watch(user, a.zipCode)).status).toBe(204);
    expect(await watched(user)).toEqual([b.zipCode, a.zipCode]);
    expect((await unwatch(user, a.zipCode)).status).toBe(204);
    expect((await unwatch(user, a.zipCode)).status).toBe(204);
    expect(await watched(user)).toEqual([b.zipCode]);
    expect(await watched(await watcher())).toEqual([]);
  });

  it('a ZIP code without an analysis answers 404, a malformed one 400, and nothing is stored', async () => {
    const user = await watcher();
    const absent = await absentZip();
    const put = await watch(user, absent);
    expect(put.status).toBe(404);
    expect(put.body.error).toMatch(new RegExp(absent));
    expect((await unwatch(user, absent)).status).toBe(404);
    for (const bad of ['1234', '123456', 'abcde', '1234%20']) {
      const res = await watch(user, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBeTruthy();
      expect((await unwatch(user, bad)).status).toBe(400);
    }
    expect(await watched(user)).toEqual([]);
  });

  it('past ZIP_WATCHES_MAX a new watch answers 409; one dropped makes room', async () => {
    const zip = buildAnalysis();
    await imported(zip);
    const user = await watcher();
    const full = Array.from({ length: ZIP_WATCHES_MAX }, (_, i) => String(90000 + i));
    const mongo = new MongoClient(testEnv().mongoUrl);
    try {
      await mongo.connect();
      await mongo
        .db('homereport_zipcodes')
        .collection<{ _id: string; email: string; zips: string[] }>('zip_watches')
        .insertOne({ _id: user.userId, email: user.email, zips: full });
    } finally {
      await mongo.close();
    }
    const refused = await watch(user, zip.zipCode);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/up to 50 ZIP codes/);
    expect(await watched(user)).toHaveLength(ZIP_WATCHES_MAX);
    expect((await unwatch(user, '90000')).status).toBe(204);
    expect((await watch(user, zip.zipCode)).status).toBe(204);
    expect((await watched(user))[0]).toBe(zip.zipCode);
  });

  it('every call needs a signed-in user (401)', async () => {
    const zip = buildAnalysis();
    await imported(zip);
    expect((await api('GET', '/api/users/zip-watch')).status).toBe(401);
    expect((await api('PUT', `/api/users/zip-watch/${zip.zipCode}`)).status).toBe(401);
    expect((await api('DELETE', `/api/users/zip-watch/${zip.zipCode}`)).status).toBe(401);
  });
});

describe('ZIP alerts', () => {
  it('an import that changes watched ZIP codes emails each watcher once, listing old -> new; no change, no email', async () => {
    const [shared, own, unwatched, quiet, later] = [
      buildAnalysis(),
      buildAnalysis(),
      buildAnalysis(),
      buildAnalysis(),
      buildAnalysis(),
    ].map((a) => withRisk(a, 'low'));
    if (!shared || !own || !unwatched || !quiet || !later) throw new Error('five analyses');
    await imported(shared, own, unwatched, quiet, later);
    const [first, second, third] = [await watcher('first'), await watcher('second'), await watcher('third')];
    for (const zip of [shared, own]) expect((await watch(first, zip.zipCode)).status).toBe(204);
    expect((await watch(second, shared.zipCode)).status).toBe(204);
    for (const zip of [quiet, later]) expect((await watch(third, zip.zipCode)).status).toBe(204);

    // Import 1: the shared, own and unwatched ZIP codes change; quiet and later do not.
    await imported(withRisk(shared, 'high'), withRisk(own, 'high'), withRisk(unwatched, 'high'), quiet, later);
    const [toFirst] = await alertCount(first, 1);
    const [toSecond] = await alertCount(second, 1);
    const text = (m: Email | undefined) => m?.text ?? '';
    for (const zip of [shared, own]) expect(text(toFirst)).toContain(zip.zipCode);
    expect(text(toFirst)).toMatch(/Risk level\s*:?\s*low -> high/);
    expect(toFirst?.subject).toBe('2 ZIP codes you watch changed');
    expect(text(toSecond)).toContain(shared.zipCode);
    expect(text(toSecond)).not.toContain(own.zipCode);
    expect(toSecond?.subject).toMatch(new RegExp(`^ZIP ${shared.zipCode} changed: risk level`));
    for (const m of [toFirst, toSecond]) expect(text(m)).not.toContain(unwatched.zipCode);

    // Import 2: the same figures again, nothing changes. Import 3 then changes `later` only:
    // once the third watcher has that alert, import 2's would have come before it.
    await imported(withRisk(shared, 'high'), withRisk(own, 'high'), quiet);
    await imported(withRisk(later, 'high'));
    const toThird = await alertCount(third, 1);
    expect(toThird).toHaveLength(1);
    expect(text(toThird[0])).toContain(later.zipCode);
    expect(text(toThird[0])).not.toContain(quiet.zipCode);
    expect(await alertsTo(first)).toHaveLength(1);
    expect(await alertsTo(second)).toHaveLength(1);
  });

  it('a deleted account is forgotten: its watches go and a later change emails nobody there', async () => {
    const zip = withRisk(buildAnalysis(freshZip()), 'low');
    await imported(zip);
    const password = 'watcher password 12345';
    const email = uniqueEmail('leaving');
    expect((await api('POST', '/api/auth/register', { body: { email, password } })).status).toBe(201);
    const verify = await waitForEmail(email, /verify/i);
    expect(
      (await api('POST', '/api/auth/verify-email', { body: { token: tokenOf(linkIn(verify, '/verify-email')) } }))
        .status,
    ).toBe(200);
    const login = await api<{ token: string; user: { id: string } }>('POST', '/api/auth/login', {
      body: { email, password },
    });
    expect(login.status).toBe(200);
    const leaving = { userId: login.body.user.id, email, token: login.body.token };
    expect((await watch(leaving, zip.zipCode)).status).toBe(204);
    const staying = await watcher('staying');
    expect((await watch(staying, zip.zipCode)).status).toBe(204);

    const deleted = await api('DELETE', '/api/auth/account', { token: leaving.token, body: { password } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    const mongo = new MongoClient(testEnv().mongoUrl);
    try {
      await mongo.connect();
      const watches = mongo.db('homereport_zipcodes').collection<{ _id: string }>('zip_watches');
      await eventually(
        async () => ((await watches.findOne({ _id: leaving.userId })) === null ? true : undefined),
        30_000,
        'the deleted account’s watches erased',
      );
    } finally {
      await mongo.close();
    }

    await imported(withRisk(zip, 'high'));
    await alertCount(staying, 1);
    expect(await alertsTo(leaving)).toEqual([]);
  });

  it('npm run zip:import alerts watchers too: the running service publishes what the command recorded', async () => {
    const zip = withRisk(buildAnalysis(), 'low');
    await imported(zip);
    const user = await watcher('cli');
    expect((await watch(user, zip.zipCode)).status).toBe(204);
    const folder = mkdtempSync(join(tmpdir(), 'zip-watch-'));
    writeFileSync(join(folder, 'changed.json'), JSON.stringify(withRisk(zip, 'high')));
    const run = await zipImport(folder);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Alerted 1 watcher of changed ZIP codes/);
    const [alert] = await alertCount(user, 1);
    expect(alert?.text).toMatch(/Risk level\s*:?\s*low -> high/);
  });
});
