// `npm run bench:leads`: how fast are leads taken in, and do the lead list and stats hold at scale?
// Starts the real servers and the whole stack on their own ports (BENCH_PORT_OFFSET, default 450)
// with the gateway's rate limit off, then:
//  1. seeds 1k leads into the stack's leads database and 100k into a second database served by a
//     second leads service process (through the service's own repository, the same write path
//     as the webhook, without HTTP), with a few percent moved to other statuses; once the
//     database has settled after the load, measures p50/p99 of the lead list (first page, a deep
//     page, by status, by key, by key and status) and of the stats on both services side by side,
//     one request to each in turn, so the machine's swings hit both sizes alike (the services are
//     called directly, as the gateway calls them: the gateway's share does not depend on size);
//  2. posts leads through the gateway at increasing concurrency (autocannon, each lead unique) and
//     a Fastify hello-world POST of the same body in the same run, printing requests/s and p99 of
//     both, then checks that every lead answered 200 is stored and its lead-received event
//     published (0 lost). A floor runs beside them: a bare proxy in front of a POST that only
//     stores its body in the same database, the least any stored lead behind a gateway costs.
// Figures, not a pass/fail test: the machine is shared and noisy, so compare within one run.
// Goals (issue 11): leads/s >= 0.25 x hello-world; 0 lost; list and stats p99 at 100k within 1.5x of 1k.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import autocannon from 'autocannon';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { pct, pool, signInNewAdmin, startBenchStack, timedRequest, waitUntilIdle } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '450';
const { repoRoot, waitForPort } = await import('../infra/local/servers.mjs');
const { LeadsRepository } = await import('../services/leads/src/data/leads-repository.ts');
const { encodeCursor } = await import('../services/leads/src/domain/cursor.ts');

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,8,32,64').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
// p99 of 1,000 samples is the 10th slowest: one pause of the machine does not decide it.
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 1000);
const KEYS = ['bench-google', 'bench-meta', 'bench-tiktok', 'bench-bing', 'bench-web'];
const log = (m) => console.log(`[bench] ${m}`);

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const request = (base, method, path, options = {}) => timedRequest(base, method, path, { ...options, agent });

function leadBody(i, keyName) {
  return {
    lead_id: `bench-${keyName}-${i}-${randomUUID()}`,
    first_name: 'Bench',
    last_name: `Lead ${i}`,
    email: `lead-${i}@bench.example`,
    phone: '+1 555-0100',
    campaign_id: `campaign-${i % 17}`,
    ad_group_id: `group-${i % 5}`,
  };
}

// ---- 1. list and stats at 1k and 100k ---------------------------------------------------------

/** Inserts leads up to `size` through the repository, moving a few percent to other statuses. */
async function seedTo(repo, size, state) {
  const from = state.count;
  const t0 = Date.now();
  let lastLog = t0;
  await pool(size - from, 16, async (n) => {
    const i = from + n;
    const key = KEYS[i % KEYS.length];
    const body = leadBody(i, key);
    await repo.insert(
      key,
      {
        ...body,
        form_id: null,
        gcl_id: null,
        is_test: false,
        raw: JSON.stringify(body),
      },
      new Date(),
      null,
    );
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      log(`  ${from + n + 1}/${size} leads (${Math.round((n + 1) / ((Date.now() - t0) / 1000))}/s)`);
    }
  });
  state.count = size;
  // Worked leads: 5% contacted, 2% qualified, 1% converted, 3% lost, spread over all positions.
  const admin = { id: 'bench', email: 'bench@example.com' };
  const moves = [];
  for (let seq = from + 1; seq <= size; seq++) {
    const r = seq % 100;
    const to = r < 5 ? 'contacted' : r < 7 ? 'qualified' : r < 8 ? 'converted' : r < 11 ? 'lost' : null;
    if (to) moves.push([seq, to]);
  }
  await pool(moves.length, 8, async (i) => {
    const [seq, to] = moves[i];
    await repo.changeStatus(String(seq), to, admin, new Date());
  });
  log(`  seeded ${size - from} leads and ${moves.length} status changes in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

/** An admin's call as the gateway forwards it to a service. */
const asAdminHeaders = (secret) => ({
  'x-internal-secret': secret,
  'x-user-id': 'bench-admin',
  'x-user-email': 'bench-admin@example.com',
  'x-user-role': 'admin',
});

/**
 * The list and stats calls on each target (a leads service and the size of its database), one
 * request to each in turn per sample, so both sizes are measured over the same seconds.
 */
async function measureReads(targets, headers) {
  const cases = [
    ['list, first page (50)', () => '/api/admin/leads'],
    ['list, deep page (cursor at half)', (size) => `/api/admin/leads?cursor=${encodeCursor(Math.floor(size / 2))}`],
    ['list, 200 per page', () => '/api/admin/leads?limit=200'],
    ['list by status new', () => '/api/admin/leads?status=new'],
    ['list by status converted (1%)', () => '/api/admin/leads?status=converted'],
    ['list by key', () => `/api/admin/leads?key_name=${KEYS[0]}`],
    ['list by key + status converted', () => `/api/admin/leads?key_name=${KEYS[0]}&status=converted`],
    ['stats', () => '/api/admin/leads/stats'],
  ];
  const rows = [];
  for (const [name, pathFor] of cases) {
    const times = targets.map(() => []);
    const returned = targets.map(() => 0);
    for (let i = -20; i < SAMPLES; i++) {
      for (const [t, target] of targets.entries()) {
        const path = pathFor(target.size);
        const res = await request(target.url, 'GET', path, { headers });
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        if (i < 0) continue;
        if (i === 0 && !path.endsWith('/stats')) returned[t] = res.json().leads.length;
        times[t].push(res.ms);
      }
    }
    rows.push({
      name,
      cells: targets.map((_, t) => ({ p50: pct(times[t], 50), p99: pct(times[t], 99), returned: returned[t] })),
    });
  }
  return rows;
}

/** A second leads service (the same code) on its own database, for the large size. */
async function startLeadsService(port, settings, database) {
  // Its database's indexes first, as every start of a release (decision 028).
  execFileSync(process.execPath, ['--import', 'tsx', 'services/leads/src/cli/migrate.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...settings, MONGO_DB: database },
    stdio: 'ignore',
  });
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/leads/src/server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...settings, PORT: String(port), MONGO_DB: database, SERVICE_NAME: 'leads' },
    stdio: 'ignore',
  });
  await waitForPort(port, { name: `leads service on ${database}`, proc: child });
  return child;
}

// ---- 2. throughput against a hello-world ----------------------------------------------------

/** A Node process running `code` as an ES module from the repository root (its packages resolve). */
const runModule = (code) =>
  spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: repoRoot, stdio: 'inherit' });

function startHelloWorld(port) {
  const code = `
    import Fastify from 'fastify';
    const app = Fastify();
    app.post('/hello', async (req) => ({ ok: true, lead_id: req.body?.lead_id ?? null }));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
  `;
  return runModule(code);
}

/**
 * The floor of any lead path on this machine: a bare Node proxy (what a gateway hop costs at
 * least) in front of a Fastify POST that answers once its body is stored as one document in the
 * same local MongoDB, written in groups as the leads service writes (one insertMany per turn of the
 * event loop), with only the `_id` index. No key, validation, counters, event or alert.
 */
async function startFloor(storePort, proxyPort, mongoUrl) {
  const store = `
    import Fastify from 'fastify';
    import { MongoClient } from 'mongodb';
    const client = await MongoClient.connect(${JSON.stringify(mongoUrl)});
    const docs = client.db('homereport_bench_floor').collection('docs');
    let queue = [];
    const flush = () => {
      const batch = queue;
      queue = [];
      docs.insertMany(batch.map((b) => b.doc), { ordered: false }).then(
        () => batch.forEach((b) => b.resolve()),
        (err) => batch.forEach((b) => b.reject(err)),
      );
    };
    const app = Fastify();
    app.post('/store', async (req) => {
      const doc = { _id: String(req.body.lead_id), ...req.body, at: new Date() };
      await new Promise((resolve, reject) => {
        if (queue.push({ doc, resolve, reject }) === 1) setImmediate(flush);
      });
      return { ok: true, lead_id: doc._id };
    });
    await app.listen({ port: ${storePort}, host: '127.0.0.1' });
  `;
  const proxy = `
    import http from 'node:http';
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    http.createServer((req, res) => {
      const upstream = http.request(
        { host: '127.0.0.1', port: ${storePort}, path: req.url, method: req.method, headers: req.headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    }).listen(${proxyPort}, '127.0.0.1');
  `;
  const children = [store, proxy].map(runModule);
  await waitForPort(storePort);
  await waitForPort(proxyPort);
  return children;
}

function cannon({ url, connections, headers, body }) {
  let n = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: SECONDS,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(body(n++)) }) }],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function throughput(gateway, token, mongo, direct, mongoUrl) {
  const helloPort = 38000 + Number(process.env.TEST_PORT_OFFSET) + 99;
  const hello = startHelloWorld(helloPort);
  await waitForPort(helloPort);
  const floorProxyPort = helloPort - 2;
  const floor = await startFloor(helloPort - 3, floorProxyPort, mongoUrl);
  const newKey = async (label, connections) => {
    const keyName = `bench-${label}-c${connections}-${randomUUID().slice(0, 6)}`;
    const created = await request(gateway, 'POST', '/api/admin/webhook-keys', { token, body: { key_name: keyName } });
    return { keyName, secret: created.json().webhook_key };
  };
  const leadsRun = async (label, url, connections, extraHeaders = {}) => {
    const { keyName, secret } = await newKey(label, connections);
    const sent = [];
    const result = await cannon({
      url,
      connections,
      headers: { 'x-webhook-key': secret, ...extraHeaders },
      body: (i) => {
        const body = leadBody(i, keyName);
        sent.push(`${encodeURIComponent(keyName)}:${body.lead_id}`);
        return body;
      },
    });
    // Requests still in flight when the time ran out finish (and store) after the count above.
    await new Promise((r) => setTimeout(r, 3000));
    // Counted by `_id` (a scan of 100k leads while others write can fail on the embedded server's
    // store: "Chunk not found").
    const leads = mongo.db('homereport_leads').collection('leads');
    let stored = 0;
    for (let i = 0; i < sent.length; i += 500) {
      stored += (await leads.find({ _id: { $in: sent.slice(i, i + 500) } }, { projection: { _id: 1 } }).toArray())
        .length;
    }
    return {
      keyName,
      perSecond: result['2xx'] / SECONDS,
      p99: result.latency.p99,
      accepted: result['2xx'],
      refused: result.non2xx + result.errors + result.timeouts,
      stored,
    };
  };
  const rows = [];
  try {
    for (const connections of CONCURRENCY) {
      const viaGateway = await leadsRun('gateway', `${gateway}/api/webhooks/leads`, connections);
      // The same service without the gateway hop (what the proxy costs).
      const toService = await leadsRun('direct', `${direct.url}/api/webhooks/leads`, connections, {
        'x-internal-secret': direct.secret,
      });
      const helloResult = await cannon({
        url: `http://127.0.0.1:${helloPort}/hello`,
        connections,
        body: (i) => leadBody(i, 'hello'),
      });
      const floorResult = await cannon({
        url: `http://127.0.0.1:${floorProxyPort}/store`,
        connections,
        body: (i) => leadBody(i, 'floor'),
      });
      rows.push({
        connections,
        viaGateway,
        toService,
        helloPerSecond: helloResult['2xx'] / SECONDS,
        helloP99: helloResult.latency.p99,
        floorPerSecond: floorResult['2xx'] / SECONDS,
        floorP99: floorResult.latency.p99,
      });
      log(
        `  c=${connections}: gateway ${viaGateway.accepted} accepted / ${viaGateway.stored} stored; direct ${toService.accepted} / ${toService.stored}; hello ${helloResult['2xx']}`,
      );
    }
  } finally {
    hello.kill('SIGTERM');
    for (const child of floor) child.kill('SIGTERM');
  }
  return rows;
}

/** Counts the lead-received events published for each bench key (from the topic's start). */
async function eventsPublished(brokers, keyNames, expected) {
  const kafka = new Kafka({ clientId: 'bench-leads', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `bench-leads-${randomUUID()}` });
  const seen = new Map(keyNames.map((k) => [k, new Set()]));
  await consumer.connect();
  await consumer.subscribe({ topics: ['lead-received'], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const data = JSON.parse(message.value.toString('utf8')).data;
      seen.get(data.key_name)?.add(data.lead_id);
    },
  });
  const deadline = Date.now() + 120_000;
  const done = () => keyNames.every((k) => seen.get(k).size >= expected.get(k));
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
  await consumer.disconnect();
  return new Map([...seen].map(([k, s]) => [k, s.size]));
}

// ---- run ------------------------------------------------------------------------------------

const bench = await startBenchStack({ name: 'leads', log, settings: { RATE_LIMIT_PER_MINUTE: '0' } });
const { infra, stack } = bench;
const { INTERNAL_SECRET: internalSecret, EVENT_SECRET_KEY: eventSecretKey } = bench.settings;
let mongo;
let largeLeads;
try {
  const gateway = bench.base;
  const token = await signInNewAdmin(bench);

  mongo = await MongoClient.connect(infra.settings.MONGO_URL);
  const [small, large] = SIZES;
  const largeDatabase = 'homereport_leads_bench_large';
  const smallRepo = new LeadsRepository(mongo.db('homereport_leads'), null);
  const largeRepo = new LeadsRepository(mongo.db(largeDatabase), null);
  await smallRepo.ensureIndexes();
  await largeRepo.ensureIndexes();
  log(`seeding ${small} leads, and ${large} in a second database`);
  await seedTo(smallRepo, small, { count: 0 });
  await seedTo(largeRepo, large, { count: 0 });
  const largePort = 38000 + Number(process.env.TEST_PORT_OFFSET) + 98;
  largeLeads = await startLeadsService(
    largePort,
    { ...infra.settings, INTERNAL_SECRET: internalSecret, EVENT_SECRET_KEY: eventSecretKey, LOG_LEVEL: 'warn' },
    largeDatabase,
  );
  const waited = await waitUntilIdle(infra.servers.mongo.proc.pid);
  log(`measuring reads side by side (${SAMPLES} samples each; the database settled for ${waited} ms)`);
  const reads = await measureReads(
    [
      { size: small, url: `http://127.0.0.1:${stack.ports.services.leads}` },
      { size: large, url: `http://127.0.0.1:${largePort}` },
    ],
    asAdminHeaders(internalSecret),
  );

  log(`posting leads and hello-world at concurrency ${CONCURRENCY.join(', ')} (${SECONDS} s each)`);
  const direct = { url: `http://127.0.0.1:${stack.ports.services.leads}`, secret: internalSecret };
  const rows = await throughput(gateway, token, mongo, direct, infra.settings.MONGO_URL);
  log('waiting for every accepted lead’s lead-received event');
  const runs = rows.flatMap((r) => [r.viaGateway, r.toService]);
  const published = await eventsPublished(
    infra.settings.KAFKA_BROKERS,
    runs.map((r) => r.keyName),
    new Map(runs.map((r) => [r.keyName, r.stored])),
  );

  const f = (n, d = 1) => n.toFixed(d);
  // A lead is lost when it was answered 200 but is not stored or its event never came. Leads
  // still in flight when a run's time ran out are stored without the 200 being counted.
  const lost = (run) => Math.max(0, run.accepted - Math.min(run.stored, published.get(run.keyName) ?? 0));
  console.log(
    `\nLoad average during the run (2 cores, shared): ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('\nInbound leads vs a Fastify hello-world POST (same body, same run), requests/s and p99 ms\n');
  console.log(
    '| connections | leads via gateway /s | p99 | leads direct to service /s | p99 | hello-world /s | p99 | gateway leads ÷ hello | floor /s | floor ÷ hello | accepted | stored | events | lost |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const g = r.viaGateway;
    const d = r.toService;
    const events = (published.get(g.keyName) ?? 0) + (published.get(d.keyName) ?? 0);
    const refused = g.refused + d.refused;
    console.log(
      `| ${r.connections} | ${f(g.perSecond, 0)} | ${f(g.p99, 0)} | ${f(d.perSecond, 0)} | ${f(d.p99, 0)} | ${f(r.helloPerSecond, 0)} | ${f(r.helloP99, 0)} | ${f(g.perSecond / r.helloPerSecond, 3)} | ${f(r.floorPerSecond, 0)} | ${f(r.floorPerSecond / r.helloPerSecond, 3)} | ${g.accepted + d.accepted} | ${g.stored + d.stored} | ${events} | ${lost(g) + lost(d)}${refused ? ` (${refused} not 200)` : ''} |`,
    );
  }

  console.log(
    '\nfloor: a bare Node proxy in front of a Fastify POST that stores its body as one document in the same MongoDB (grouped inserts, `_id` only): what any lead path through a gateway could reach here at best.',
  );
  console.log(
    `\nLead list and stats, ${small} and ${large} leads side by side (one request to each in turn), called as the gateway calls the service, ms\n`,
  );
  console.log(`| call | ${small} p50 / p99 | ${large} p50 / p99 | p99 ratio |`);
  console.log('|---|---|---|---|');
  for (const row of reads) {
    const cells = row.cells
      .map((c) => `${f(c.p50)} / ${f(c.p99)}${c.returned ? ` (${c.returned} rows)` : ''}`)
      .join(' | ');
    console.log(`| ${row.name} | ${cells} | ${f(row.cells[1].p99 / row.cells[0].p99, 2)}x |`);
  }
} finally {
  largeLeads?.kill('SIGTERM');
  await mongo?.close();
  await bench.stop();
}
