import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toxiproxyServer } from '../../../infra/local/servers.mjs';
import { Toxiproxy, toxiproxyPorts } from '../../../infra/local/toxiproxy.mjs';
import { testEnv } from '../../../test/support/env.js';
import { serversPresent } from '../../../test/support/servers.js';
import { Infrastructure, type ServiceApp, createLogger, createServiceApp } from '../src/index.js';

// A MongoDB that hangs part-way through a request must not hold the request past its deadline
// (connections/mongo-deadline.ts, decision 013): a route makes one operation, MongoDB then hangs
// (Toxiproxy between the kit and the run's MongoDB lets nothing through either way), the route
// waits a while and makes its next operation. With the request's deadline that operation gets
// only what is left, so the answer (503, Retry-After) comes BUDGET_MS after the request arrived;
// with the per-operation timeout alone it would come PAUSE_MS later. On the driver's collections
// (requests, leads) and on mongoose's models (auth, notifications), reads and writes.
const BUDGET_MS = 1000;
const PAUSE_MS = 800;
/** Scheduling slack on a shared machine: still well under the PAUSE_MS a missing deadline adds. */
const SLACK_MS = 400;

const local = serversPresent(
  testEnv().mode === 'local',
  'the hung-MongoDB test starts Toxiproxy from the local servers (this run has containers or explicit URLs)',
);

let dataDir: string;
let stopProxy: (() => Promise<void>) | undefined;
let toxiproxy: Toxiproxy;
const infras: Infrastructure[] = [];
const apps: ServiceApp[] = [];

async function serviceOn(proxyUrl: string, mongoose: boolean): Promise<ServiceApp> {
  const name = `mongo-hung-${mongoose ? 'mongoose' : 'driver'}`;
  const logger = createLogger({ name, level: 'silent', format: 'json' });
  const infra = await Infrastructure.open(
    name,
    { MONGO_URL: proxyUrl, MONGO_TIMEOUT_MS: BUDGET_MS },
    { mongoDb: 'kit_hung_test', mongoose },
    logger,
  );
  infras.push(infra);
  const app = await createServiceApp({ name, logger });
  await infra.attach(app);
  apps.push(app);
  return app;
}

/** Makes one operation, then MongoDB hangs, then after PAUSE_MS the route's next one. */
async function hangsAfterFirst<T>(first: () => Promise<unknown>, next: () => Promise<T>): Promise<T> {
  await first();
  await toxiproxy.hang('mongo');
  await sleep(PAUSE_MS);
  return next();
}

async function timedCall(app: ServiceApp, method: 'GET' | 'POST', url: string) {
  const started = Date.now();
  const res = await app.inject({ method, url });
  return { res, ms: Date.now() - started };
}

describe.runIf(local)('a MongoDB that hangs part-way through a request', () => {
  let driverApp: ServiceApp;
  let mongooseApp: ServiceApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'homereport-mongo-hung-'));
    const ports = toxiproxyPorts('test');
    const server = toxiproxyServer(ports, dataDir);
    await server.start();
    stopProxy = () => server.stop();
    toxiproxy = new Toxiproxy(ports.api);
    await toxiproxy.createProxy('mongo', ports.mongo, testEnv().infraPorts.mongo ?? 0);
    const proxyUrl = `mongodb://127.0.0.1:${ports.mongo}/`;

    driverApp = await serviceOn(proxyUrl, false);
    const notes = infras[0]?.db.collection<{ _id: string; text: string }>('notes');
    if (!notes) throw new Error('no driver connection');
    await notes.updateOne({ _id: 'kept' }, { $set: { text: 'kept' } }, { upsert: true });
    driverApp.get('/read', async () =>
      hangsAfterFirst(
        () => notes.findOne({ _id: 'kept' }),
        async () => ({ found: (await notes.findOne({ _id: 'kept' }))?.text ?? null }),
      ),
    );
    driverApp.post('/write', async () =>
      hangsAfterFirst(
        () => notes.findOne({ _id: 'kept' }),
        async () => notes.findOneAndUpdate({ _id: 'kept' }, { $set: { touched: true } }),
      ),
    );
    driverApp.get('/list', async () =>
      hangsAfterFirst(
        () => notes.findOne({ _id: 'kept' }),
        async () => ({ notes: await notes.find({}).toArray() }),
      ),
    );

    mongooseApp = await serviceOn(proxyUrl, true);
    const { Schema } = await import('mongoose');
    const Note = infras[1]?.mongoose.model('HungNote', new Schema({ text: String }), 'hung_notes');
    if (!Note) throw new Error('no mongoose connection');
    mongooseApp.get('/read', async () =>
      hangsAfterFirst(
        () => Note.findOne({ text: 'kept' }),
        async () => ({ found: (await Note.findOne({ text: 'kept' }))?.text ?? null }),
      ),
    );
    mongooseApp.post('/write', async () =>
      hangsAfterFirst(
        () => Note.findOne({ text: 'kept' }),
        async () => {
          await Note.create({ text: 'late' });
          return { stored: true };
        },
      ),
    );
  }, 60_000);

  afterAll(async () => {
    await toxiproxy?.reset().catch(() => undefined);
    for (const app of apps) await app.close();
    await stopProxy?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const cases: [string, () => ServiceApp, 'GET' | 'POST', string][] = [
    ['a read through the driver', () => driverApp, 'GET', '/read'],
    ['a write through the driver', () => driverApp, 'POST', '/write'],
    ['a cursor through the driver', () => driverApp, 'GET', '/list'],
    ['a query through a mongoose model', () => mongooseApp, 'GET', '/read'],
    ['a save through a mongoose model', () => mongooseApp, 'POST', '/write'],
  ];
  for (const [what, app, method, url] of cases) {
    it(`${what}: answers 503 with Retry-After at the request's deadline, not an operation's deadline later`, async () => {
      try {
        const { res, ms } = await timedCall(app(), method, url);
        expect(res.statusCode, res.body).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(ms).toBeGreaterThanOrEqual(BUDGET_MS - 50);
        expect(ms).toBeLessThan(BUDGET_MS + SLACK_MS);
      } finally {
        await toxiproxy.reset();
      }
      // MongoDB answers again, and the next request is served (no breaker left open by the case).
      await expect
        .poll(async () => (await app().inject({ method: 'GET', url: '/health/ready' })).statusCode, { timeout: 10_000 })
        .toBe(200);
    });
  }
});
