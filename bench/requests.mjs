// `npm run bench:requests`: do opening a report and the covered list stay flat as data grows, and
// how does the covered list compare with a bare Fastify hello-world? Starts the real servers and
// the whole stack on their own ports (BENCH_PORT_OFFSET, default 1500), seeds the requests
// database with 1k and then 100k requests (half covered) and as many report views, and prints
// for both sizes:
//   - GET /api/requests/:id/view through the gateway (bench users each opening 10 reports and
//     reopening 5: credits spent, ledger written, counters kept), p50 / p99;
//   - GET /api/requests/covered through the gateway under autocannon, requests/s and p99;
//   - a Fastify hello-world (its own process) under the same load in the same run.
// Goals (issue 10): p99 at 100k within 1.5x of 1k; covered list at least 0.5x the hello-world.
// Figures, not a pass/fail test: the machine is shared. Services log at info, as in production.
// Settings: BENCH_SIZES (1000,100000), BENCH_SECONDS (10), BENCH_CONNECTIONS (32), BENCH_USERS (100),
// BENCH_ROUNDS (2: list and hello-world take turns, figures are the means).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { seedRequests as seed } from './seed-requests.mjs';
import { pct, pool, startBenchStack, timedRequest } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '1500';
const { repoRoot, waitForPort } = await import('../infra/local/servers.mjs');
const { SessionStore } = await import('../packages/kit/src/sessions.ts');
const { bumpCacheGeneration } = await import('../packages/kit/src/cache-generation.ts');

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const USERS = Number(process.env.BENCH_USERS ?? 100);
const HELLO_PORT = 27990 + Number(process.env.TEST_PORT_OFFSET);
const log = (m) => console.log(`[bench] ${m}`);

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const runAll = (jobs, concurrency) => pool(jobs.length, concurrency, (i) => jobs[i]());
const get = (base, path, token) => timedRequest(base, 'GET', path, { token, agent });

/** autocannon results of several turns as one: mean rate and p99, summed failures. */
function meanOf(results) {
  const mean = (pick) => results.reduce((sum, r) => sum + pick(r), 0) / results.length;
  return {
    requests: { average: mean((r) => r.requests.average) },
    latency: { p99: mean((r) => r.latency.p99) },
    throughput: { average: mean((r) => r.throughput.average) },
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

function load(url, options = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, ...options }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function measure(size, ctx) {
  const { gateway, db, sessions, redis } = ctx;
  const t0 = Date.now();
  ctx.covered.push(...(await seed(db, size)));
  log(`seeded ${size} requests and views in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  // The seeding bypassed the service: start the covered list from a fresh generation.
  await bumpCacheGeneration(redis, 'requests:covered:generation');
  const covered = ctx.covered;
  const pick = () => covered[Math.floor(Math.random() * covered.length)];

  const users = await Promise.all(
    Array.from({ length: USERS + 20 }, () =>
      sessions.create({
        userId: `bench-${randomUUID()}`,
        email: `bench-${randomUUID().slice(0, 8)}@example.com`,
        role: 'user',
      }),
    ),
  );
  const jobsFor = (tokens) =>
    tokens.flatMap((token) => {
      const reports = Array.from({ length: 10 }, pick);
      return [...reports, ...reports.slice(0, 5)].map((id) => () => get(gateway, `/api/requests/${id}/view`, token));
    });
  // Warm-up with users of its own, then the measured opens.
  await runAll(jobsFor(users.slice(USERS)), 8);
  const opens = await runAll(jobsFor(users.slice(0, USERS)), 8);
  const bad = opens.filter((r) => r.status !== 200).length;
  if (bad > 0) {
    const statuses = {};
    for (const r of opens) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    log(`${bad} opens did not answer 200: ${JSON.stringify(statuses)}`);
  }
  const openMs = opens.map((r) => r.ms);

  await load(`${gateway}/api/requests/covered`, { duration: 2 }); // warm-up
  // The machine's speed drifts (other work, the JVMs settling after the seeding): the list and the
  // hello-world take turns, ROUNDS times each, and each figure is the mean of its turns.
  const turns = { list: [], listBr: [], hello: [] };
  for (let round = 0; round < ROUNDS; round++) {
    turns.list.push(await load(`${gateway}/api/requests/covered`));
    // As a browser asks: compressed (the gateway keeps a brotli copy of the cached page).
    turns.listBr.push(
      await load(`${gateway}/api/requests/covered`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }),
    );
    turns.hello.push(await load(`http://127.0.0.1:${HELLO_PORT}/`));
  }
  const [list, listBr, hello] = [turns.list, turns.listBr, turns.hello].map(meanOf);
  // Where the time goes: the service alone (no gateway), and the gateway alone (a path it answers itself).
  const direct = await load(`http://127.0.0.1:${ctx.requestsPort}/api/requests/covered`, {
    headers: { 'x-internal-secret': ctx.secret },
  });
  const gatewayOnly = await load(`${gateway}/api/no-such-route`);
  return {
    size,
    opens: opens.length,
    openP50: pct(openMs, 50),
    openP99: pct(openMs, 99),
    listRps: list.requests.average,
    listP99: list.latency.p99,
    listBytes: list.throughput.average / Math.max(1, list.requests.average),
    listErrors: list.non2xx + list.errors + listBr.non2xx + listBr.errors,
    listBrRps: listBr.requests.average,
    listBrP99: listBr.latency.p99,
    listBrBytes: listBr.throughput.average / Math.max(1, listBr.requests.average),
    helloRps: hello.requests.average,
    helloP99: hello.latency.p99,
    directRps: direct.requests.average,
    gatewayOnlyRps: gatewayOnly.requests.average,
  };
}

const bench = await startBenchStack({
  name: 'requests',
  log,
  settings: {
    // As in production: one access line per request, written to each process's own file.
    LOG_LEVEL: 'info',
    // High enough never to refuse, and still counted for every request.
    RATE_LIMIT_PER_MINUTE: '100000000',
  },
});
const { infra, stack } = bench;
const secret = bench.settings.INTERNAL_SECRET;
let hello;
let mongo;
let redis;
try {
  hello = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import Fastify from 'fastify'; const app = Fastify(); app.get('/', async () => ({ hello: 'world' })); await app.listen({ port: ${HELLO_PORT}, host: '127.0.0.1' });`,
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  await waitForPort(HELLO_PORT, { name: 'hello-world', proc: hello });
  mongo = await MongoClient.connect(infra.settings.MONGO_URL);
  redis = new Redis(infra.settings.REDIS_URL);
  const ctx = {
    gateway: stack.url,
    db: mongo.db('homereport_requests'),
    sessions: new SessionStore(redis),
    redis,
    covered: [],
    secret,
    requestsPort: stack.ports.services.requests,
  };
  const rows = [];
  for (const size of SIZES) rows.push(await measure(size, ctx));

  const f = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');
  console.log(
    `\n| requests + views stored | open a report p50 / p99 ms (${rows[0]?.opens} opens) | covered list req/s, p99 ms (identity) | covered list req/s, p99 ms (br, as browsers ask) | hello-world req/s | list / hello-world (identity; br) |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.size} + ${r.size} | ${f(r.openP50)} / ${f(r.openP99)} | ${f(r.listRps, 0)}, ${f(r.listP99, 0)} | ${f(r.listBrRps, 0)}, ${f(r.listBrP99, 0)} | ${f(r.helloRps, 0)} | ${f(r.listRps / r.helloRps, 2)}; ${f(r.listBrRps / r.helloRps, 2)} |`,
    );
  }
  console.log(
    `\ndiagnostics (req/s): ${rows.map((r) => `${r.size}: covered list straight to the service ${f(r.directRps, 0)}, gateway answering alone (404) ${f(r.gatewayOnlyRps, 0)}`).join('; ')}`,
  );
  if (rows.length === 2) {
    const [small, big] = rows;
    console.log(
      `\np99 ${big.size} vs ${small.size}: open a report ${f(big.openP99 / small.openP99, 2)}x, covered list ${f(big.listP99 / small.listP99, 2)}x (goal <= 1.5x); covered list vs hello-world ${f(big.listRps / big.helloRps, 2)} identity, ${f(big.listBrRps / big.helloRps, 2)} br (goal >= 0.5); list body ${f(big.listBytes, 0)} bytes (br ${f(big.listBrBytes, 0)}), ${big.listErrors} errors`,
    );
  }
} finally {
  hello?.kill('SIGTERM');
  await redis?.quit().catch(() => {});
  await mongo?.close().catch(() => {});
  await bench.stop();
}
