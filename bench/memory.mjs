// `npm run bench:memory`: resident memory (RSS) of every process of the compiled build (`npm run
// build`, run with plain node as in the image), idle and under load. Goal: each service and the
// gateway under 100 MB idle. The Kubernetes requests and limits (infra/k8s/base) come from these
// figures. BENCH_RUNTIMES=compiled,source adds the same run with the TypeScript sources through
// tsx, for comparison. Workspaces whose dist/ is older than their sources are built first.
//
// Idle: 20 s after the stack answers, when startup garbage has been collected. Loaded: the peak
// (sampled every 250 ms) while 32 connections send a mix of calls that reach every service for
// LOAD_SECONDS (default 20): sign-in attempts (argon2), coverage requests (a write and an event
// notifications consumes), searches of the covered list, ZIP details, contact messages, lead
// posts with an unknown key, a report-file link that does not exist, and the health fan-out.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startBenchStack } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '2400';

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
const IDLE_SETTLE_MS = 20_000;
const CONNECTIONS = 32;
const runtimes = (process.env.BENCH_RUNTIMES ?? 'compiled').split(',');
const log = (m) => console.log(`[bench:memory] ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resident set size of a process in MB, from /proc (VmRSS). */
function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** One call of the load mix, chosen by its index, so every service gets its share. */
function call(base, i) {
  const n = `${Date.now()}-${i}`;
  const post = (path, body, headers = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  switch (i % 8) {
    case 0:
      return post('/api/auth/login', { email: `nobody-${n}@example.com`, password: 'not-the-password' });
    case 1:
      return post('/api/requests', { address: `${i} Bench Street, Springfield, IL 62701`, notes: 'memory bench' });
    case 2:
      return fetch(`${base}/api/requests/covered?q=street${i % 50}`);
    case 3:
      return fetch(`${base}/api/zipcodes/${String(10000 + (i % 900)).padStart(5, '0')}`);
    case 4:
      return post('/api/contact', {
        name: 'Bench',
        email: `b${n}@example.com`,
        subject: 'Hi',
        message: 'Memory bench',
      });
    case 5:
      return post(
        '/api/webhooks/leads',
        { lead_id: n, first_name: 'A', last_name: 'B', email: 'a@example.com' },
        {
          'x-webhook-key': 'unknown',
        },
      );
    case 6:
      return fetch(`${base}/api/files/${randomBytes(12).toString('hex')}/report.pdf`);
    default:
      return fetch(`${base}/api/health`);
  }
}

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

    log(`${runtime}: load for ${LOAD_SECONDS} s over ${CONNECTIONS} connections`);
    const peak = { ...idle };
    const sampler = setInterval(() => {
      for (const p of procs) peak[p.name] = Math.max(peak[p.name], rssMb(p.pid));
    }, 250);
    const until = Date.now() + LOAD_SECONDS * 1000;
    let next = 0;
    const statuses = {};
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < until) {
          const res = await call(stack.url, next++).catch(() => null);
          const key = res ? res.status : 'error';
          statuses[key] = (statuses[key] ?? 0) + 1;
          await res?.arrayBuffer().catch(() => undefined);
        }
      }),
    );
    clearInterval(sampler);
    log(`${runtime}: ${next} calls, answers by status ${JSON.stringify(statuses)}`);
    await sleep(IDLE_SETTLE_MS);
    const after = Object.fromEntries(procs.map((p) => [p.name, rssMb(p.pid)]));
    return procs.map((p) => ({ name: p.name, idle: idle[p.name], peak: peak[p.name], after: after[p.name] }));
  } finally {
    await bench.stop();
  }
}

const results = {};
for (const runtime of runtimes) results[runtime] = await measure(runtime);

const fmt = (mb) => mb.toFixed(0).padStart(5);
console.log(`\nRSS in MB on Node ${process.versions.node}, ${LOAD_SECONDS} s of load at ${CONNECTIONS} connections`);
console.log('| runtime | process | idle | peak under load | idle after load |');
console.log('|---|---|---|---|---|');
let failed = false;
for (const [runtime, rows] of Object.entries(results)) {
  for (const r of rows) {
    console.log(`| ${runtime} | ${r.name} | ${fmt(r.idle)} | ${fmt(r.peak)} | ${fmt(r.after)} |`);
    if (runtime === 'compiled' && r.idle >= 100) failed = true;
  }
  const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
  console.log(`| ${runtime} | all ${rows.length} | ${fmt(sum('idle'))} | ${fmt(sum('peak'))} | ${fmt(sum('after'))} |`);
}
console.log(
  failed
    ? '\ngoal NOT met: a compiled process is at 100 MB or more idle'
    : '\ngoal met: every compiled process under 100 MB idle',
);
