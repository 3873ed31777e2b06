// `npm run bench:memory`: resident memory (RSS) of every process of the compiled build (`npm run
// build`, run with plain node as in the image, each heap sized from its container's limit by
// packages/kit/bin/heap.mjs), idle and under a write burst, against its container's limit
// (MEMORY_LIMIT_MIB in infra/local/stack.mjs, the manifests' limits). Goal (issue 41): every
// process's peak at most 80% of its limit. BENCH_RUNTIMES=compiled,source adds the same run with
// the TypeScript sources through tsx. Workspaces whose dist/ is older than their sources are built first.
//
// Idle: 20 s after the stack answers. Burst: BURST_REQUESTS (5,000) anonymous coverage requests,
// each of a new address (a new property, a request-submitted event), over 16 connections; the peak
// is sampled every 250 ms from the burst's start until the stack has caught up (the requests
// outbox empty and no consumer lag, at most CATCH_UP_SECONDS, 180), as the relay's catching up
// is where requests grew past its limit before. Then idle again 20 s later.
import { readFileSync } from 'node:fs';
import { MEMORY_LIMIT_MIB } from '../infra/local/stack.mjs';
import { startBenchStack } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '2400';

const BURST_REQUESTS = Number(process.env.BURST_REQUESTS ?? 5000);
const CATCH_UP_SECONDS = Number(process.env.CATCH_UP_SECONDS ?? 180);
const IDLE_SETTLE_MS = 20_000;
const CONNECTIONS = 16;
const GOAL_SHARE = 0.8;
const runtimes = (process.env.BENCH_RUNTIMES ?? 'compiled').split(',');
const log = (m) => console.log(`[bench:memory] ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resident set size of a process in MB, from /proc (VmRSS). */
function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** The sum of a metric's samples on a process's Prometheus port (0 when it cannot be read). */
async function metricSum(port, name) {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) })
    .then((r) => r.text())
    .catch(() => '');
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = new RegExp(`^\\w*${name}(?:\\{[^}]*\\})? ([\\d.e+-]+)$`).exec(line);
    if (m) sum += Number(m[1]);
  }
  return sum;
}

/** One coverage request of the burst: anonymous, each of its own address. */
const coverageRequest = (base, i) =>
  fetch(`${base}/api/requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: `${i + 1} Burst Street, Springfield, IL 62701`, notes: 'memory bench' }),
  });

async function measure(runtime) {
  const bench = await startBenchStack({
    name: 'memory',
    log,
    runtime,
    settings: {
      RATE_LIMIT_PER_MINUTE: '1000000',
      HEALTH_RATE_LIMIT_PER_MINUTE: '1000000',
      ANON_REQUESTS_PER_HOUR: '1000000',
      ACCOUNT_REQUESTS_PER_HOUR: '1000000',
      // The machine is shared and slow: a deadline missed under load would only add noise.
      MONGO_TIMEOUT_MS: '10000',
      REDIS_TIMEOUT_MS: '10000',
      // Extra node flags of every process, to compare settings (e.g. --max-semi-space-size=1).
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    },
  });
  const { stack } = bench;
  try {
    const procs = stack.processes.map((p) => ({ name: p.name, pid: p.child.pid }));
    log(`${runtime}: stack up; settling ${IDLE_SETTLE_MS / 1000} s`);
    await sleep(IDLE_SETTLE_MS);
    const idle = Object.fromEntries(procs.map((p) => [p.name, rssMb(p.pid)]));

    log(`${runtime}: ${BURST_REQUESTS} coverage requests over ${CONNECTIONS} connections`);
    const peak = { ...idle };
    const sampler = setInterval(() => {
      for (const p of procs) peak[p.name] = Math.max(peak[p.name], rssMb(p.pid));
    }, 250);
    const started = Date.now();
    let next = 0;
    const statuses = {};
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < BURST_REQUESTS) {
          const res = await coverageRequest(stack.url, next++).catch(() => null);
          const key = res ? res.status : 'error';
          statuses[key] = (statuses[key] ?? 0) + 1;
          await res?.arrayBuffer().catch(() => undefined);
        }
      }),
    );
    const burstSeconds = (Date.now() - started) / 1000;
    log(`${runtime}: burst sent in ${burstSeconds.toFixed(1)} s, answers by status ${JSON.stringify(statuses)}`);
    // Caught up: nothing left in the requests outbox, no consumer behind (sampled meanwhile).
    const metrics = stack.ports.metrics;
    const until = Date.now() + CATCH_UP_SECONDS * 1000;
    let behind = Number.POSITIVE_INFINITY;
    while (Date.now() < until) {
      const pending = await metricSum(metrics.requests, 'outbox_pending_documents');
      let lag = 0;
      for (const name of ['requests', 'notifications']) lag += await metricSum(metrics[name], 'kafka_consumer_lag');
      behind = pending + lag;
      if (behind === 0) break;
      await sleep(1000);
    }
    clearInterval(sampler);
    const caughtUp = (Date.now() - started) / 1000;
    log(
      `${runtime}: ${behind === 0 ? 'caught up' : `still ${behind} behind`} ${caughtUp.toFixed(0)} s after the burst began`,
    );
    await sleep(IDLE_SETTLE_MS);
    const after = Object.fromEntries(procs.map((p) => [p.name, rssMb(p.pid)]));
    results.notes.push(
      `${runtime}: burst ${burstSeconds.toFixed(1)} s (${(BURST_REQUESTS / burstSeconds).toFixed(0)}/s, answers ${JSON.stringify(statuses)}), caught up after ${caughtUp.toFixed(0)} s${behind === 0 ? '' : ` (NOT: ${behind} behind)`}`,
    );
    return procs.map((p) => ({ name: p.name, idle: idle[p.name], peak: peak[p.name], after: after[p.name] }));
  } finally {
    await bench.stop();
  }
}

const results = { notes: [] };
for (const runtime of runtimes) results[runtime] = await measure(runtime);

const fmt = (mb) => mb.toFixed(0).padStart(5);
console.log(
  `\nRSS in MB on Node ${process.versions.node}, ${BURST_REQUESTS} coverage requests at ${CONNECTIONS} connections`,
);
for (const note of results.notes) console.log(`- ${note}`);
console.log('| runtime | process | idle | peak under the burst | idle after | limit MiB | peak / limit |');
console.log('|---|---|---|---|---|---|---|');
const over = [];
for (const runtime of runtimes) {
  const rows = results[runtime];
  for (const r of rows) {
    const limit = MEMORY_LIMIT_MIB[r.name.replace(/-\d+$/, '')];
    const share = r.peak / limit;
    if (share > GOAL_SHARE) over.push(`${runtime} ${r.name}`);
    console.log(
      `| ${runtime} | ${r.name} | ${fmt(r.idle)} | ${fmt(r.peak)} | ${fmt(r.after)} | ${limit} | ${(share * 100).toFixed(0)}% |`,
    );
  }
  const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
  console.log(
    `| ${runtime} | all ${rows.length} | ${fmt(sum('idle'))} | ${fmt(sum('peak'))} | ${fmt(sum('after'))} | | |`,
  );
}
console.log(
  over.length > 0
    ? `\ngoal NOT met: peak above ${GOAL_SHARE * 100}% of the limit for ${over.join(', ')}`
    : `\ngoal met: every peak at most ${GOAL_SHARE * 100}% of its container's limit`,
);
process.exitCode = over.length > 0 ? 1 : 0;
