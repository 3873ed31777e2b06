// `npm run bench:metrics`: what do the Prometheus metrics cost the gateway? Starts the real
// servers and the whole stack on their own ports (BENCH_PORT_OFFSET, default 2100), then two more
// gateways beside the stack's, started alike on the same services, Redis and settings: one with
// metrics, one with METRICS_PORT=0 (no hooks, no Node default collectors, no metrics port). Not
// the stack's own gateway against a new one: run against each other with metrics on in both, those
// two differed by about 4% (the stack's had served the set-up calls), as much as the metrics cost.
// Loads both in turns with autocannon, in the same run:
//   - GET /api/requests/covered, the public list the gateway answers from its memory (the
//     gateway's own cost, where the per-request metrics weigh most),
//   - GET /api/auth/me signed in (a kept session, and a forwarded call),
// while Prometheus's scrape is imitated every BENCH_SCRAPE_MS (1000) on the gateway with metrics.
// Prints requests/s, p50 / p99 and CPU ms per request of both and their ratio.
// Goal (issue 24): with metrics at most 5% fewer requests per second (ratio >= 0.95).
// Figures, not a pass/fail test: the machine is shared, so compare the two columns of one run.
// Settings: BENCH_SECONDS (5), BENCH_CONNECTIONS (32), BENCH_ROUNDS (3: the two take turns, each
// figure the mean of its turns), BENCH_PATHS (both calls), BENCH_CPU_PROF (a folder: both gateways
// write their CPU profiles there when they stop), BENCH_RUNTIME (compiled: dist/ under plain node,
// as production runs, built first where stale; or source: tsx). With the image's Node:
// `~/.cache/homereport/node-24.21.0/bin/node --import tsx bench/metrics.mjs`.
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { load as loadTurn, meanOf } from './compare.mjs';
import { buildIfStale, signInNewAdmin, startBenchStack, timedRequest } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '2100';
const { repoRoot, waitForPort } = await import('../infra/local/servers.mjs');
const { NODE_FLAGS, processArgs } = await import('../infra/local/stack.mjs');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '32').split(',').map(Number);
const PATHS = (process.env.BENCH_PATHS ?? '/api/requests/covered,/api/auth/me').split(',');
const SCRAPE_MS = Number(process.env.BENCH_SCRAPE_MS ?? 1000);
const PORTS = { on: 27971, off: 27972, metrics: 27973 };
for (const k of Object.keys(PORTS)) PORTS[k] += Number(process.env.TEST_PORT_OFFSET);
const RUNTIME = process.env.BENCH_RUNTIME ?? 'compiled';
const log = (m) => console.log(`[bench] ${m}`);
if (RUNTIME === 'compiled') await buildIfStale(log);

const load = (url, connections, options = {}) => loadTurn(url, connections, { duration: SECONDS, ...options });

const bench = await startBenchStack({
  name: 'metrics',
  log,
  runtime: RUNTIME,
  // As in production: info logs; a rate limit that never refuses but still counts every request.
  settings: { LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '100000000' },
});
const { stack, settings } = bench;
const gateways = [];
let scraper;
try {
  const token = await signInNewAdmin({ base: stack.url, settings });
  const upstreams = Object.fromEntries(
    Object.entries(stack.ports.services).map(([name, port]) => [
      `${name.toUpperCase()}_URL`,
      `http://127.0.0.1:${port}`,
    ]),
  );
  /** A gateway like the stack's, on the same services; `metricsPort` 0: metrics off. */
  const startGateway = async (which, port, metricsPort) => {
    const logFile = openSync(join(bench.dataDir, 'logs', `gateway-metrics-${which}.log`), 'a');
    const child = spawn(process.execPath, processArgs(RUNTIME, 'gateway', NODE_FLAGS.gateway), {
      cwd: repoRoot,
      env: {
        ...process.env,
        ...settings,
        ...upstreams,
        LOG_FORMAT: 'json',
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        // BENCH_CPU_PROF=<dir>: each of the two writes a V8 CPU profile there when it stops.
        ...(process.env.BENCH_CPU_PROF
          ? { NODE_OPTIONS: `--import ${repoRoot}/bench/cpu-profile.mjs`, CPU_PROFILE_DIR: process.env.BENCH_CPU_PROF }
          : {}),
      },
      // Their lines go to files: the same logging cost on both sides.
      stdio: ['ignore', logFile, logFile],
    });
    gateways.push(child);
    await waitForPort(port, { name: `gateway with metrics ${which}`, proc: child, timeoutMs: 60_000 });
    return child;
  };
  const on = await startGateway('on', PORTS.on, PORTS.metrics);
  const off = await startGateway('off', PORTS.off, 0);
  const withMetrics = `http://127.0.0.1:${PORTS.on}`;
  const without = `http://127.0.0.1:${PORTS.off}`;
  const metricsUrl = `http://127.0.0.1:${PORTS.metrics}/metrics`;
  const scrape = await fetch(metricsUrl);
  if (scrape.status !== 200) throw new Error(`the gateway's /metrics answered ${scrape.status}`);
  // Prometheus scrapes the gateway with metrics as it would in production.
  scraper = setInterval(
    () =>
      void fetch(metricsUrl).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      ),
    SCRAPE_MS,
  );

  const calls = [
    { path: '/api/requests/covered', headers: {} },
    { path: '/api/auth/me', headers: { authorization: `Bearer ${token}` } },
  ].filter((call) => PATHS.includes(call.path));
  for (const call of calls)
    for (const base of [withMetrics, without]) {
      const check = await timedRequest(base, 'GET', call.path, { headers: call.headers });
      if (check.status !== 200) throw new Error(`${base}${call.path} answered ${check.status}`);
    }

  const pids = { on: on.pid, off: off.pid };
  log(`gateway with metrics: pid ${on.pid}; without: pid ${off.pid}`);
  const rows = [];
  for (const call of calls) {
    await load(`${withMetrics}${call.path}`, 8, { duration: 2, headers: call.headers });
    await load(`${without}${call.path}`, 8, { duration: 2, headers: call.headers });
    for (const connections of CONNECTIONS) {
      const turns = { on: [], off: [] };
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate which goes first, so a drift of the machine's load weighs on both alike.
        const order = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
        for (const which of order) {
          const base = which === 'on' ? withMetrics : without;
          turns[which].push(
            await load(`${base}${call.path}`, connections, { headers: call.headers, pid: pids[which] }),
          );
        }
      }
      const row = { path: call.path, connections, on: meanOf(turns.on), off: meanOf(turns.off) };
      log(`${row.path} at ${connections}: metrics on ${row.on.rps.toFixed(0)}/s, off ${row.off.rps.toFixed(0)}/s`);
      rows.push(row);
    }
  }

  const f = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');
  console.log(
    '\n| path | connections | req/s metrics on | req/s off | on / off | p50 / p99 ms on | p50 / p99 ms off | CPU ms per request on / off | failed (on, off) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { path, connections, on, off } of rows) {
    console.log(
      `| ${path} | ${connections} | ${f(on.rps)} | ${f(off.rps)} | ${f(on.rps / off.rps, 3)} | ${f(on.p50, 1)} / ${f(on.p99, 1)} | ${f(off.p50, 1)} / ${f(off.p99, 1)} | ${f(on.cpuMs, 3)} / ${f(off.cpuMs, 3)} | ${on.failed}, ${off.failed} |`,
    );
  }
  console.log(
    `\nGoal: on / off at least 0.95 (metrics cost at most 5% of the requests per second); ${RUNTIME} build on Node ${process.versions.node}.`,
  );
} finally {
  if (scraper) clearInterval(scraper);
  for (const child of gateways.filter((c) => c.exitCode === null)) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await bench.stop();
}
