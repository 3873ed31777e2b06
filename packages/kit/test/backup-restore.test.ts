import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { Client as MinioClient } from 'minio';
import { BSON, type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startInfra, stopByPidFile } from '../../../infra/local/servers.mjs';
import { type StackPorts, startStack } from '../../../infra/local/stack.mjs';
import {
  type ReplicaStack,
  coveredRequest,
  replicaStackPossible,
  separateStackSettings,
  session,
  shiftedOffset,
  through,
  uniqueAddress,
} from '../../../test/replicas/stack.js';
import { eventually, uniqueEmail } from '../../../test/support/api.js';
import { SERVICE_DATABASES } from '../src/backup/manifest.js';

/*
 * Backup and restore (api.md, "Backup and restore"): data made through the gateway, the stack
 * stopped, `npm run backup`, everything wiped (databases and bucket), `npm run restore`, the
 * stack started again: every document, index and file as at the backup, the services healthy,
 * and the user, the requests, the report file and the lead there through the gateway. A restore
 * while the services answer is refused and changes nothing. A stack on servers of its own (as
 * the replica suite's), since the run's stack cannot be stopped under the other test files.
 */

const run = replicaStackPossible();
const PASSWORD = 'correct horse backup';
const BUCKET = 'homereport-reports';
const execFileAsync = promisify(execFile);

interface Stack {
  gateway: string;
  ports: StackPorts;
  stop(): Promise<void>;
}

let dataDir: string;
let stopInfra: () => Promise<void>;
let settings: Record<string, string>;
let stack: Stack | undefined;
let mongo: MongoClient;
let redis: Redis;
let s3: MinioClient;
const offset = shiftedOffset(100);

async function startServices(): Promise<Stack> {
  const started = await startStack({
    profile: 'test',
    offset,
    logDir: join(dataDir, 'logs'),
    pretty: false,
    log: (m) => console.log(`[backup] ${m}`),
    settings,
  });
  return { gateway: started.url, ports: started.ports, stop: started.stop };
}

/** `npm run backup` / `npm run restore` as an operator runs them, pointed at this stack. */
async function npmRun(script: 'backup' | 'restore', args: string[], ports: StackPorts) {
  const serviceUrls = Object.fromEntries(
    Object.entries(ports.services).map(([name, port]) => [`${name.toUpperCase()}_URL`, `http://127.0.0.1:${port}`]),
  );
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    MONGO_URL: settings.MONGO_URL,
    S3_ENDPOINT: settings.S3_ENDPOINT,
    S3_ACCESS_KEY: settings.S3_ACCESS_KEY,
    S3_SECRET_KEY: settings.S3_SECRET_KEY,
    ...serviceUrls,
  };
  try {
    const { stdout, stderr } = await execFileAsync('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Every document (canonical Extended JSON: types included) and index of the services' databases. */
async function databasesNow(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const name of SERVICE_DATABASES) {
    const db: Db = mongo.db(name);
    const collections = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
    for (const collection of collections) {
      const docs = await db.collection(collection).find({}).sort({ _id: 1 }).toArray();
      const indexes = (await db.collection(collection).listIndexes().toArray())
        // An index's options in name order: their order says nothing (its key's order does).
        .map(({ v: _v, ns: _ns, ...index }) =>
          Object.fromEntries(Object.entries(index).sort(([a], [b]) => a.localeCompare(b))),
        )
        .sort((a, b) => String(a.name).localeCompare(String(b.name)));
      out[`${name}.${collection}`] = {
        docs: docs.map((d) => BSON.EJSON.stringify(d, { relaxed: false })),
        indexes: BSON.EJSON.stringify(indexes, { relaxed: false }),
      };
    }
  }
  return out;
}

/** Every object of the bucket: its bytes' hash, content type and own metadata. */
async function filesNow(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (!(await s3.bucketExists(BUCKET))) return out;
  for await (const item of s3.listObjectsV2(BUCKET, '', true) as AsyncIterable<{ name: string }>) {
    const stat = await s3.statObject(BUCKET, item.name);
    const hash = createHash('sha256');
    for await (const chunk of await s3.getObject(BUCKET, item.name)) hash.update(chunk as Buffer);
    out[item.name] = {
      sha256: hash.digest('hex'),
      contentType: stat.metaData['content-type'],
      originalName: stat.metaData['original-name'],
    };
  }
  return out;
}

async function wipe(): Promise<void> {
  for (const name of SERVICE_DATABASES) await mongo.db(name).dropDatabase();
  const keys: string[] = [];
  for await (const item of s3.listObjectsV2(BUCKET, '', true) as AsyncIterable<{ name: string }>) keys.push(item.name);
  if (keys.length > 0) await s3.removeObjects(BUCKET, keys);
  await s3.removeBucket(BUCKET);
}

/** The emails the stack's maildev holds for `address`. */
async function mailTo(address: string): Promise<{ subject: string; text: string; html: string }[]> {
  const all = (await (await fetch(`${settings.MAILDEV_URL}/email`)).json()) as {
    subject: string;
    text: string;
    html: string;
    to: { address: string }[];
  }[];
  return all.filter((m) => m.to.some((t) => t.address === address));
}

beforeAll(async () => {
  if (!run) return;
  dataDir = mkdtempSync(join(tmpdir(), 'homereport-backup-'));
  const infra = await startInfra({ profile: 'test', dataDir, log: (m) => console.log(`[backup] ${m}`), offset });
  stopInfra = async () => {
    await infra.stop();
    for (const name of ['kafka', 'mongo', 'redis', 'versitygw', 'maildev']) await stopByPidFile(dataDir, name);
  };
  settings = separateStackSettings(infra.settings as Record<string, string>);
  mongo = await new MongoClient(settings.MONGO_URL ?? '').connect();
  redis = new Redis(settings.REDIS_URL ?? '');
  const s3Url = new URL(settings.S3_ENDPOINT ?? '');
  s3 = new MinioClient({
    endPoint: s3Url.hostname,
    port: Number(s3Url.port),
    useSSL: false,
    accessKey: settings.S3_ACCESS_KEY ?? '',
    secretKey: settings.S3_SECRET_KEY ?? '',
    pathStyle: true,
  });
  stack = await startServices();
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await mongo?.close();
  redis?.disconnect();
  await stopInfra?.();
  if (dataDir && !process.env.KEEP_TEST_DATA) rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

describe.runIf(run)('npm run backup, then npm run restore', () => {
  // Two starts of the whole stack, a backup and a restore: more than vitest's default minute on a busy machine.
  it('brings back every record and file, and the services start with them', async () => {
    const live = stack as Stack;
    const G = live.gateway;
    const stackLike = { redis } as unknown as ReplicaStack;
    const admin = await session(stackLike, 'admin');

    // A verified user who submits a request (auth, requests; a receipt email: notifications).
    const email = uniqueEmail('backup');
    expect((await through(G, 'POST', '/api/auth/register', { body: { email, password: PASSWORD } })).status).toBe(201);
    const verification = await eventually(async () => (await mailTo(email)).find((m) => /verify/i.test(m.subject)));
    const token = /verify-email\?token=([\w.-]+)/.exec(verification.text || verification.html)?.[1];
    expect((await through(G, 'POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    const login = await through(G, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    const mine = await through(G, 'POST', '/api/requests', {
      token: login.body.token,
      body: { address: uniqueAddress() },
    });
    expect(mine.status).toBe(201);
    // A covered report with its file (requests, files' object in S3).
    const coveredId = await coveredRequest(G, admin);
    // A lead through a webhook key (leads), and a contact message (notifications).
    const key = await through(G, 'POST', '/api/admin/webhook-keys', {
      token: admin.token,
      body: { key_name: `backup ${randomBytes(3).toString('hex')}` },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const leadId = `backup-${randomBytes(6).toString('hex')}`;
    const lead = await through(G, 'POST', '/api/webhooks/leads', {
      headers: { 'x-webhook-key': key.body.webhook_key },
      body: { lead_id: leadId, first_name: 'Dana', last_name: 'Cole', email: 'dana@lead.example' },
    });
    expect(lead.status, JSON.stringify(lead.body)).toBe(200);
    const contact = await through(G, 'POST', '/api/contact', {
      body: { name: 'Kim', email, subject: 'Backup', message: 'Is my data safe?' },
    });
    expect(contact.status).toBe(202);
    // Everything has settled: the lead is listed, the receipt and the acknowledgement were sent.
    await eventually(async () => {
      const leads = await through(G, 'GET', '/api/admin/leads', { token: admin.token });
      return leads.body.leads?.some((l: { lead_id: string }) => l.lead_id === leadId);
    });
    await eventually(
      async () => (await mailTo(email)).length >= 3,
      30_000,
      'the receipt and the contact acknowledgement',
    );

    await live.stop();
    stack = undefined;
    const databases = await databasesNow();
    const files = await filesNow();
    expect(Object.keys(files)).toHaveLength(1);

    const out = join(dataDir, 'backup');
    const backup = await npmRun('backup', ['--out', out], live.ports);
    expect(backup.code, backup.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(Object.keys(manifest.databases).sort()).toEqual([...SERVICE_DATABASES].sort());
    expect(manifest.databases.homereport_requests.collections.requests).toBe(2);
    expect(manifest.files.count).toBe(1);

    await wipe();
    expect(await databasesNow()).toEqual({});

    const restore = await npmRun('restore', ['--from', out], live.ports);
    expect(restore.code, restore.stderr).toBe(0);
    expect(await databasesNow()).toEqual(databases);
    expect(await filesNow()).toEqual(files);

    stack = await startServices();
    const G2 = stack.gateway;
    await eventually(async () => (await through(G2, 'GET', '/api/health')).status === 200, 30_000, 'health 200');
    const again = await through(G2, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(again.status).toBe(200);
    const requests = await through(G2, 'GET', '/api/requests/mine', { token: again.body.token });
    expect(requests.body.requests.map((r: { id: string }) => r.id)).toEqual([mine.body.request.id]);
    const view = await through(G2, 'GET', `/api/admin/requests/${coveredId}`, { token: admin.token });
    expect(view.body.status).toBe('covered');
    const download = await through(G2, 'GET', view.body.report_path);
    expect(download.status).toBe(200);
    expect(String(download.body)).toContain(`report of ${coveredId}`);
    const leads = await through(G2, 'GET', '/api/admin/leads', { token: admin.token });
    expect(leads.body.leads.map((l: { lead_id: string }) => l.lead_id)).toContain(leadId);

    // With the services up again, a second restore is refused and changes nothing.
    const refused = await npmRun('restore', ['--from', out], stack.ports);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/Refusing to restore while services answer: auth/);
    const requestsNow = await mongo.db('homereport_requests').collection('requests').countDocuments();
    expect(requestsNow).toBe(2);
  }, 420_000);
});
