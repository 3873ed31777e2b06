// `npm run bench:gateway`: what does the gateway cost against a bare proxy? Starts the real servers
// and the whole stack on their own ports (BENCH_PORT_OFFSET, default 1800), seeds 1,000 requests
// (half covered), signs an admin in, starts a bare Node http-proxy in its own process
// (bench/peer-proxy.mjs: the same services, the same headers set, the identity known beforehand)
// and loads, in the same run, the gateway and that peer in turns with autocannon:
//   - GET /api/auth/me signed in (the gateway resolves the session; the peer knows it),
//   - GET /api/requests/covered, the first page of the public list,
// at several connection counts. Prints requests/s and p50 / p99 of both and their ratio.
// Goal (issue 20): the gateway at least 0.8 of the peer on both calls.
// Figures, not a pass/fail test: the machine is shared, so compare the two columns of one run.
// Processes log at info, as in production (the peer logs nothing: it is the floor).
// Settings: BENCH_SECONDS (5), BENCH_CONNECTIONS (8,32,64), BENCH_ROUNDS (2: gateway and peer take
// turns, first one then the other, each figure the mean of its turns), BENCH_WARMUP_SECONDS (20 per
// call, in four turns taken alternately), BENCH_SIZE (1000 requests seeded), BENCH_PATHS (both calls),
// BENCH_CPU_PROF (a folder: the gateway writes its CPU profile there when it stops), BENCH_RUNTIME
// (compiled: dist/ under plain node, as production runs, built first where stale; or source: tsx).
// Run it with the image's Node to measure what production runs:
// `~/.cache/homereport/node-24.21.0/bin/node bench/gateway.mjs`.
import { spawn } from 'node:child_process';
import { MongoClient } from 'mongodb';
import { load as loadTurn, meanOf } from './compare.mjs';
import { seedRequests } from './seed-requests.mjs';
import { signInNewAdmin, startBenchStack, timedRequest } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '1800';
const { repoRoot, waitForPort } = await import('../infra/local/servers.mjs');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '8,32,64').split(',').map(Number);
const SIZE = Number(process.env.BENCH_SIZE ?? 1000);
const PATHS = (process.env.BENCH_PATHS ?? '/api/auth/me,/api/requests/covered').split(',');
const PEER_PORT = 27970 + Number(process.env.TEST_PORT_OFFSET);
const RUNTIME = process.env.BENCH_RUNTIME ?? 'compiled';
const log = (m) => console.log(`[bench] ${m}`);

const load = (url, connections, options = {}) => loadTurn(url, connections, { duration: SECONDS, ...options });

const bench = await startBenchStack({
  name: 'gateway',
  log,
  runtime: RUNTIME,
  settings: {
    LOG_LEVEL: 'info',
    // High enough never to refuse, and still counted for every request.
    RATE_LIMIT_PER_MINUTE: '100000000',
  },
  // BENCH_CPU_PROF=<dir>: the gateway writes a V8 CPU profile there when it stops.
  ...(process.env.BENCH_CPU_PROF
    ? {
        processSettings: {
          gateway: {
            NODE_OPTIONS: `--import ${repoRoot}/bench/cpu-profile.mjs`,
            CPU_PROFILE_DIR: process.env.BENCH_CPU_PROF,
          },
        },
      }
    : {}),
});
const { stack, settings } = bench;
let peer;
let mongo;
try {
  mongo = await MongoClient.connect(settings.MONGO_URL);
  await seedRequests(mongo.db('homereport_requests'), SIZE);
  const token = await signInNewAdmin({ base: stack.url, settings });
  const me = await timedRequest(stack.url, 'GET', '/api/auth/me', { token });
  if (me.status !== 200) throw new Error(`/api/auth/me answered ${me.status}`);
  const { id: userId, email, role } = me.json().user;

  const service = (name) => `http://127.0.0.1:${stack.ports.services[name]}`;
  peer = spawn(process.execPath, ['bench/peer-proxy.mjs'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      PORT: String(PEER_PORT),
      INTERNAL_SECRET: settings.INTERNAL_SECRET,
      PEER_ROUTES: JSON.stringify({ '/api/auth/': service('auth'), '/api/requests/': service('requests') }),
      PEER_IDENTITY: JSON.stringify({ userId, email, role }),
    },
    stdio: 'inherit',
  });
  await waitForPort(PEER_PORT, { name: 'peer proxy', proc: peer });
  const peerUrl = `http://127.0.0.1:${PEER_PORT}`;

  const calls = [
    { path: '/api/auth/me', headers: { authorization: `Bearer ${token}` } },
    { path: '/api/requests/covered', headers: {} },
  ].filter((call) => PATHS.includes(call.path));
  for (const call of calls) {
    for (const base of [stack.url, peerUrl]) {
      const check = await timedRequest(base, 'GET', call.path, { headers: call.headers });
      if (check.status !== 200) throw new Error(`${base}${call.path} answered ${check.status}`);
    }
  }

  const gatewayPid = stack.processes.find((p) => p.name === 'gateway').child.pid;
  const rows = [];
  for (const call of calls) {
    // Warm-up of both: JIT in every process on the path (the services' and MongoDB's too), keep-alive
    // connections, the gateway's kept answer. After 2 s of each, the first measured turns of a
    // fresh stack still ran up to a third slower than the later ones.
    for (const base of [stack.url, peerUrl, stack.url, peerUrl])
      await load(`${base}${call.path}`, 8, { duration: WARMUP_SECONDS / 4, headers: call.headers });
    const sides = [
      ['gateway', stack.url, gatewayPid],
      ['peer', peerUrl, peer.pid],
    ];
    for (const connections of CONNECTIONS) {
      const turns = { gateway: [], peer: [] };
      // Gateway first in one round, the peer in the next: a machine that speeds up or slows down
      // through the run weighs on both alike, not always on the side that goes first.
      for (let round = 0; round < ROUNDS; round++) {
        for (const [side, base, pid] of round % 2 === 0 ? sides : [...sides].reverse())
          turns[side].push(await load(`${base}${call.path}`, connections, { headers: call.headers, pid }));
      }
      const row = { path: call.path, connections, gateway: meanOf(turns.gateway), peer: meanOf(turns.peer) };
      log(`${row.path} at ${connections}: gateway ${row.gateway.rps.toFixed(0)}/s, peer ${row.peer.rps.toFixed(0)}/s`);
      rows.push(row);
    }
  }

  const f = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');
  console.log(
    '\n| path | connections | gateway req/s | peer req/s | gateway / peer | gateway p50 / p99 ms | peer p50 / p99 ms | CPU ms per request: gateway / peer | failed (gateway, peer) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { path, connections, gateway, peer: p } of rows) {
    console.log(
      `| ${path} | ${connections} | ${f(gateway.rps)} | ${f(p.rps)} | ${f(gateway.rps / p.rps, 2)} | ${f(gateway.p50, 1)} / ${f(gateway.p99, 1)} | ${f(p.p50, 1)} / ${f(p.p99, 1)} | ${f(gateway.cpuMs, 3)} / ${f(p.cpuMs, 3)} | ${gateway.failed}, ${p.failed} |`,
    );
  }
  console.log(
    `\ngoal: gateway / peer >= 0.8 on both calls; ${RUNTIME} build on Node ${process.versions.node}; ${SECONDS} s per turn, ${ROUNDS} turns each; load average ${(
      await import('node:os')
    )
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  peer?.kill('SIGTERM');
  await mongo?.close().catch(() => {});
  await bench.stop();
}
