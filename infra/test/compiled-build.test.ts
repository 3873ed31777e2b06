// The compiled build (`npm run build`) as production runs it: plain node on dist/, the workspace
// packages resolved to their dist/ through the `homereport-dist` condition, no tsx, each process
// with its production V8 flags. The test builds every workspace (the web app is built by
// `npm test` before vitest starts), then, on the Node these machines have (20) and on the image's
// Node (installed by `npm run provision`), starts all seven compiled processes beside the test
// stack and goes through the compiled gateway: health of every service, a registration whose
// verification email travels auth -> Kafka -> notifications -> SMTP, sign-in (argon2, native),
// a coverage request with a small report upload to S3, and the covered list.
//
// Apart from the test stack: the run's MongoDB, Redis, S3 and maildev, but databases, a Redis
// database and a bucket of their own, and a Kafka of their own. The consumer groups are fixed
// names ('notifications', 'requests', ...): on the run's Kafka these processes would join the
// run's own groups and take its events (and the run's consumers theirs), as the replica suite
// notes (test/replicas/stack.ts). The two Nodes run one after the other on that Kafka, each
// with databases of its own.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SessionStore } from '@homereport/kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATED_SERVICES } from '../../packages/kit/bin/migrate.mjs';
import { type ApiResponse, api, eventually, freshClientAddress, uniqueEmail } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { linkIn, tokenOf, waitForEmail } from '../../test/support/mail.js';
import { type LocalServer, cacheDir, kafka, repoRoot } from '../local/servers.mjs';
import { DIST_CONDITION, NODE_FLAGS, PROCESS_ENV, SERVICES, processArgs } from '../local/stack.mjs';

const provisionScript = join(repoRoot, 'infra/local/provision.sh');
const imageNode = (() => {
  const version = /NODE_LTS_VERSION="([\d.]+)"/.exec(readFileSync(provisionScript, 'utf8'))?.[1];
  return { version, bin: join(cacheDir, `node-${version}`, 'bin', 'node') };
})();

/** Every workspace `npm run build` builds, but the web app (already built by `npm test`). */
const buildWorkspaces = (): string[] => {
  const globs = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] })
    .workspaces;
  const dirs = globs.flatMap((g) =>
    g.endsWith('/*')
      ? readdirSync(join(repoRoot, g.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => `${g.slice(0, -2)}/${d.name}`)
      : [g],
  );
  return dirs.filter((dir) => {
    const file = join(repoRoot, dir, 'package.json');
    return dir !== 'web' && existsSync(file) && Boolean(JSON.parse(readFileSync(file, 'utf8')).scripts?.build);
  });
};

const PROCESSES = [...SERVICES, 'gateway'];
const runDir = mkdtempSync(join(tmpdir(), 'homereport-compiled-'));
const internalSecret = randomBytes(24).toString('hex');
const eventSecretKey = randomBytes(32).toString('hex');
let kafkaServer: LocalServer | undefined;
let kafkaBrokers = '';

interface Started {
  name: string;
  child: ChildProcess;
  logFile: string;
}
const running = new Set<Started>();

/** SIGTERM, then SIGKILL if it has not exited after 15 s. */
async function stop(proc: Started): Promise<void> {
  const { child } = proc;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
  running.delete(proc);
}

beforeAll(async () => {
  const env = testEnv();
  const workspaces = buildWorkspaces();
  // Not execFileSync: a worker blocked for minutes misses vitest's own calls and fails the run.
  const build = promisify(execFile)('npm', ['run', 'build', ...workspaces.flatMap((w) => ['-w', w])], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  // Its own Kafka, on the run's Kafka ports + 60 (the replica suite's servers are at + 100).
  const ports = {
    kafka: (env.infraPorts.kafka ?? 29192) + 60,
    kafkaController: (env.infraPorts.kafkaController ?? 29193) + 60,
  };
  kafkaBrokers = `127.0.0.1:${ports.kafka}`;
  kafkaServer = kafka(ports, join(runDir, 'servers'));
  await Promise.all([build, kafkaServer.start()]);
  // Every compiled process was built by this run (with its packages), not left from an older one.
  expect(workspaces).toEqual(
    expect.arrayContaining(['packages/kit', 'packages/contracts', 'gateway', ...SERVICES.map((s) => `services/${s}`)]),
  );
}, 300_000);

afterAll(async () => {
  await Promise.all([...running].map(stop));
  await kafkaServer?.stop();
  if (!process.env.KEEP_TEST_DATA) rmSync(runDir, { recursive: true, force: true });
}, 60_000);

const tail = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-20).join('\n') : '');

/** Starts one compiled process with `node` and resolves once its /health/ready answers 200. */
async function startCompiled(
  node: string,
  label: string,
  name: string,
  port: number,
  settings: Record<string, string>,
) {
  const logFile = join(runDir, `${name}-${label}.log`);
  const out = openSync(logFile, 'a');
  const child = spawn(node, processArgs('compiled', name, NODE_FLAGS[name]), {
    cwd: repoRoot,
    stdio: ['ignore', out, out],
    env: {
      PATH: process.env.PATH,
      ...PROCESS_ENV,
      ...settings,
      PORT: String(port),
      SERVICE_NAME: name,
    },
  });
  const proc = { name, child, logFile };
  running.add(proc);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return proc;
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline)
      throw new Error(
        `compiled ${name} on ${node} ${child.exitCode === null ? 'not ready in 120 s' : `exited (${child.exitCode})`}\n--- ${logFile} ---\n${tail(logFile)}`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A small but real PDF (the files service checks the content). */
const reportPdf = () =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );

describe.each([
  { label: `Node ${process.versions.node} (this machine's)`, node: process.execPath, slot: 0 },
  { label: `Node ${imageNode.version} (the image's)`, node: imageNode.bin, slot: 1 },
])('the compiled build on $label', ({ node, slot }) => {
  const tag = `n${slot === 0 ? process.versions.node.split('.')[0] : imageNode.version?.split('.')[0]}`;
  const started: Started[] = [];
  let gateway = '';
  let redis: Redis | undefined;
  const call = <T = any>(method: string, path: string, options: Parameters<typeof api>[2] = {}) =>
    api<T>(method, `${gateway}${path}`, { from: freshClientAddress(), ...options }) as Promise<ApiResponse<T>>;

  beforeAll(async () => {
    if (!existsSync(node)) return;
    const env = testEnv();
    // Ports past the stack's own (24001-24006 at offset 0): 24061-24067 on this machine's Node,
    // 24071-24077 on the image's; the replica suite's start 100 above.
    const base = (env.servicePorts.auth ?? 24001) + 60 + slot * 10;
    const ports = Object.fromEntries(PROCESSES.map((name, i) => [name, base + i]));
    gateway = `http://127.0.0.1:${ports.gateway}`;
    const redisUrl = new URL(env.redisUrl);
    redisUrl.pathname = `/${11 + slot}`; // a Redis database of their own (the stack's is 0)
    redis = new Redis(redisUrl.toString());
    await redis.flushdb();
    const settings: Record<string, string> = {
      MONGO_URL: env.mongoUrl,
      REDIS_URL: redisUrl.toString(),
      KAFKA_BROKERS: kafkaBrokers,
      S3_ENDPOINT: env.s3.endpoint,
      S3_ACCESS_KEY: env.s3.accessKey,
      S3_SECRET_KEY: env.s3.secretKey,
      S3_BUCKET: `homereport-compiled-${tag}-${randomBytes(3).toString('hex')}`,
      SMTP_URL: env.smtpUrl,
      INTERNAL_SECRET: internalSecret,
      EVENT_SECRET_KEY: eventSecretKey,
      PUBLIC_URL: gateway,
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
      MONGO_TIMEOUT_MS: '5000',
      ...Object.fromEntries(SERVICES.map((s) => [`${s.toUpperCase()}_URL`, `http://127.0.0.1:${ports[s]}`])),
    };
    const dbSuffix = `${tag}_${randomBytes(3).toString('hex')}`;
    const databaseOf = (name: string) => `homereport_compiled_${dbSuffix}_${name}`;
    // As a release rolls out: its migrations first (each service's compiled command on this Node,
    // against the service's own database); a service does not start without its indexes.
    await Promise.all(
      MIGRATED_SERVICES.map((name) =>
        promisify(execFile)(node, [`--conditions=${DIST_CONDITION}`, `services/${name}/dist/cli/migrate.js`], {
          cwd: repoRoot,
          env: { PATH: process.env.PATH, ...settings, MONGO_DB: databaseOf(name) },
        }),
      ),
    );
    // All seven at once: no process waits for another to start.
    const results = await Promise.allSettled(
      PROCESSES.map((name) =>
        startCompiled(node, tag, name, ports[name] ?? 0, {
          ...settings,
          ...(name === 'gateway' ? {} : { MONGO_DB: databaseOf(name) }),
        }),
      ),
    );
    for (const r of results) if (r.status === 'fulfilled') started.push(r.value);
    const failed = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    if (failed.length > 0) throw new Error(failed.join('\n'));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(started.map(stop));
    await redis?.quit();
  }, 60_000);

  it('is the Node it says', () => {
    expect(existsSync(node), `${node}: run npm run provision`).toBe(true);
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(slot === 0 ? process.version : `v${imageNode.version}`);
  });

  it('runs all seven processes: the gateway finds every service up', async () => {
    expect(started.map((p) => p.name).sort()).toEqual([...PROCESSES].sort());
    const health = await call('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      services: Object.fromEntries(SERVICES.map((s) => [s, 'up'])),
    });
    // The web app is served from web/dist as in the image, and the compiled zipcodes answers.
    const page = await fetch(`${gateway}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const list = await call<{ zipCodes: unknown[] }>('GET', '/api/zipcodes');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.zipCodes)).toBe(true);
  });

  it('registers a user: the verification email goes auth -> Kafka -> notifications -> SMTP; the user signs in', async () => {
    const email = uniqueEmail(`compiled-${tag}`);
    const password = `Compiled-${randomUUID()}`;
    expect((await call('POST', '/api/auth/register', { body: { email, password } })).status).toBe(201);
    const mail = await waitForEmail(email, /verify/i, 45_000);
    // Written by this Node's notifications: its PUBLIC_URL is this gateway.
    const link = linkIn(mail, '/verify-email?token=');
    expect(link.startsWith(`${gateway}/`)).toBe(true);
    expect((await call('POST', '/api/auth/verify-email', { body: { token: tokenOf(link) } })).status).toBe(200);
    const login = await call<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });
    expect(login.status).toBe(200);
    const me = await call('GET', '/api/auth/me', { token: login.body.token });
    expect(me.status).toBe(200);
  }, 90_000);

  it('takes a coverage request, a small report upload (S3) and lists it covered', async () => {
    const admin = await new SessionStore(redis as Redis).create({
      userId: `compiled-admin-${randomUUID()}`,
      email: uniqueEmail('compiled-admin'),
      role: 'admin',
    });
    const word = `w${randomUUID().replaceAll('-', '').slice(0, 10)}`;
    const created = await call('POST', '/api/requests', { body: { address: `12 ${word} Lane, Austin, TX 78701` } });
    expect(created.status).toBe(201);
    const id = created.body.request.id as string;
    const form = new FormData();
    form.append('report', new Blob([reportPdf()], { type: 'application/pdf' }), 'report.pdf');
    const upload = await call('POST', `/api/admin/requests/${id}/upload`, { token: admin, raw: form });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const covered = await call('PUT', `/api/admin/requests/${id}/status`, {
      token: admin,
      body: { status: 'covered' },
    });
    expect(covered.status, JSON.stringify(covered.body)).toBe(200);
    // The search follows the covering in its after-step, which the requests consumer finishes when
    // a dependency was slow in the call itself (as on a loaded machine): seconds, not at once.
    const listed = await eventually(
      async () => {
        const page = await call('GET', `/api/requests/covered?q=${word}`);
        return page.status === 200 && page.body.properties.length > 0 ? page : null;
      },
      15_000,
      'the covered request in the public search',
    );
    expect(listed.body.properties.map((p: { id: string }) => p.id)).toEqual([id]);
  });
});
