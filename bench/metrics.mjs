// `npm run bench:metrics`: what do the Prometheus metrics cost the gateway? Starts the real
// servers and the whole stack on their own ports (BENCH_PORT_OFFSET, default 2100), then more
// gateways beside the stack's, started alike on the same services, Redis and settings: BENCH_PAIRS
// (default 4) with metrics and as many with METRICS_PORT=0 (no hooks, no Node default collectors,
// no metrics port). Not
// the stack's own gateway against a new one: run against each other with metrics on in both, those
// two differed by about 4% (the stack's had served the set-up calls), as much as the metrics cost.
// Loads both in turns with autocannon, in the same run:
//   - GET /api/requests/covered, the public list the gateway answers from its memory (the
//     gateway's own cost, where the per-request metrics weigh most),
//   - GET /api/auth/me signed in (a kept session, and a forwarded call),
// while Prometheus's scrape is imitated every BENCH_SCRAPE_MS (1000) on each gateway with metrics.
// Prints requests/s, p50 / p99 and CPU ms per request of both sides and their ratio.
// Goal (issue 24): with metrics at most 5% fewer requests per second (ratio >= 0.95).
// Figures, not a pass/fail test: the machine is shared, so compare the two columns of one run.
// Settings: BENCH_SECONDS (5), BENCH_CONNECTIONS (32), BENCH_ROUNDS (3: every gateway takes a turn
// in each round, in an order that rotates), BENCH_PAIRS (4: two processes of the same code
// differ by up to 15% for their lives, and with two a side one lucky process moved the ratio by
// 0.1), BENCH_PATHS (both calls),
// BENCH_CPU_PROF (a folder: every gateway writes its CPU profile there when it stops), BENCH_RUNTIME (compiled: dist/ under plain node,
// as production runs, built first where stale; or source: tsx). With the image's Node:
// `~/.cache/homereport/node-24.21.0/bin/node --import tsx bench/metrics.mjs`.
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { load as loadTurn, meanOf } from './compare.mjs';
import { signInNewAdmin, startBenchStack, timedRequest } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '2100';
const { repoRoot, waitForPort } = await import('../infra/local/servers.mjs');
const { NODE_FLAGS, processArgs } = await import('../infra/local/stack.mjs');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '32').split(',').map(Number);
const PATHS = (process.env.BENCH_PATHS ?? '/api/requests/covered,/api/auth/me').split(',');
const SCRAPE_MS = Number(process.env.BENCH_SCRAPE_MS ?? 1000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 4);
/** Ports from here on: gateway ports, then the metrics ports of those with metrics. */
const FIRST_PORT = 27971 + Number(process.env.TEST_PORT_OFFSET);
const RUNTIME = process.env.BENCH_RUNTIME ?? 'compiled';
const log = (m) => console.log(`[bench] ${m}`);

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
        // BENCH_CPU_PROF=<dir>: each gateway writes a V8 CPU profile there when it stops.
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
  // PAIRS of each side, started alternately: on-1, off-1, on-2, off-2, ...
  const sides = { on: [], off: [] };
  const metricsUrls = [];
  for (let k = 0; k < PAIRS; k++)
    for (const side of ['on', 'off']) {
      const port = FIRST_PORT + sides.on.length + sides.off.length;
      const metricsPort = side === 'on' ? FIRST_PORT + 2 * PAIRS + k : 0;
      const child = await startGateway(`${side}-${k + 1}`, port, metricsPort);
      sides[side].push({ name: `${side}-${k + 1}`, base: `http://127.0.0.1:${port}`, pid: child.pid });
      if (metricsPort) metricsUrls.push(`http://127.0.0.1:${metricsPort}/metrics`);
    }
  for (const url of metricsUrls) {
    const scrape = await fetch(url);
    if (scrape.status !== 200) throw new Error(`${url} answered ${scrape.status}`);
  }
  // Prometheus scrapes each gateway with metrics as it would in production.
  scraper = setInterval(() => {
    for (const url of metricsUrls)
      void fetch(url).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
  }, SCRAPE_MS);

  const calls = [
    { path: '/api/requests/covered', headers: {} },
    { path: '/api/auth/me', headers: { authorization: `Bearer ${token}` } },
  ].filter((call) => PATHS.includes(call.path));
  const all = [...sides.on, ...sides.off];
  for (const call of calls)
    for (const { base } of all) {
      const check = await timedRequest(base, 'GET', call.path, { headers: call.headers });
      if (check.status !== 200) throw new Error(`${base}${call.path} answered ${check.status}`);
    }

  log(`gateways: ${all.map((g) => `${g.name} pid ${g.pid}`).join(', ')}`);
  // Interleaved (on-1, off-1, on-2, ...), then rotated by one each round, so a drift of the
  // machine's load weighs on both sides alike.
  const interleaved = sides.on.flatMap((g, k) => [g, sides.off[k]]);
  const rows = [];
  for (const call of calls) {
    for (const { base } of all) await load(`${base}${call.path}`, 8, { duration: 2, headers: call.headers });
    for (const connections of CONNECTIONS) {
      const turns = Object.fromEntries(all.map((g) => [g.name, []]));
      for (let round = 0; round < ROUNDS; round++)
        for (let k = 0; k < interleaved.length; k++) {
          const g = interleaved[(k + round) % interleaved.length];
          turns[g.name].push(await load(`${g.base}${call.path}`, connections, { headers: call.headers, pid: g.pid }));
        }
      const side = (list) => meanOf(list.flatMap((g) => turns[g.name]));
      const row = {
        path: call.path,
        connections,
        on: side(sides.on),
        off: side(sides.off),
        // Each process alone: how far apart two processes of one side are.
        each: all.map((g) => `${g.name} ${meanOf(turns[g.name]).rps.toFixed(0)}`).join(', '),
      };
      log(
        `${row.path} at ${connections}: metrics on ${row.on.rps.toFixed(0)}/s, off ${row.off.rps.toFixed(0)}/s (${row.each})`,
      );
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
  for (const { path, connections, each } of rows)
    console.log(`req/s of each gateway, ${path} at ${connections}: ${each}`);
  console.log(
    `\nGoal: on / off at least 0.95 (metrics cost at most 5% of the requests per second); ${PAIRS} gateways a side, ${ROUNDS} turns each; ${RUNTIME} build on Node ${process.versions.node}.`,
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
