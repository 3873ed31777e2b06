// `npm run bench:soak -- --minutes 30`: does the stack stay the same over time? Starts the real
// servers and the whole stack, and sends the mixed workload of bench:faults (bench/mixed-workload.mjs)
// at half of the calls per second this machine sustains for the given minutes. Prints the resident
// memory (RSS) and open file descriptors of every process (the services, the gateway and the
// servers) after a warm-up and at the end, p99 of the first and of the last five minutes (of the
// first and last fifth for runs under 25 minutes) and every error (5xx or no answer).
// Goals (issue 22): RSS growth under 10% after warm-up, p99 drift under 1.2x, 0 errors,
// descriptors flat. Use --minutes 2 while developing.
//
// Flags: --minutes N (default 30), --rate N (calls per second instead of half the capacity),
// --warmup-seconds N (default 60, or a tenth of the run when shorter), --runtime R (compiled, the
// default: dist/ under plain node as production runs, built first where stale; or source: tsx,
// where every process holds some 30-40 MB more). BENCH_PORT_OFFSET moves every port (default
// 2800); KEEP_BENCH_DATA=1 keeps data and logs.
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chooseRate, loadAverage, startLoad, startWorkloadStack, tally } from './mixed-workload.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '2800';
const log = (m) => console.log(`[bench] ${m}`);

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string' },
    'warmup-seconds': { type: 'string' },
    runtime: { type: 'string', default: 'compiled' },
  },
});
const RUN_MS = Number(flags.minutes) * 60_000;
const WARMUP_MS = Number(flags['warmup-seconds'] ?? Math.min(60, RUN_MS / 10 / 1000)) * 1000;
/** The two windows compared for drift: five minutes, or a fifth of a shorter run. */
const EDGE_MS = Math.min(5 * 60_000, RUN_MS / 5);

/** RSS (MB) and open descriptors of a process, from /proc; null once it is gone. */
function usage(pid) {
  try {
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return { rssMb: rssKb / 1024, fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return null;
  }
}

/** MB of V8 heap in use, from a process's /metrics (its heap spaces summed); null when it has none. */
async function heapUsedMb(metricsPort) {
  if (!metricsPort) return null;
  try {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(2000) });
    let bytes = 0;
    for (const m of (await res.text()).matchAll(/^nodejs_heap_space_size_used_bytes\{[^}]*\} (\S+)$/gm)) {
      bytes += Number(m[1]);
    }
    return bytes ? bytes / 2 ** 20 : null;
  } catch {
    return null;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const bench = await startWorkloadStack({ name: 'soak', log, runtime: flags.runtime });
const { infra, stack, workload } = bench;
try {
  /** Every process to watch, by name, with its pid now (a restarted one gets a new pid). */
  const processes = () => [
    ...stack.processes.map((proc) => [proc.name, proc.child.pid]),
    ...Object.values(infra.servers).map((server) => [server.name, server.proc?.pid]),
  ];

  const rate = await chooseRate(workload, flags.rate, log);
  const records = [];
  const started = Date.now();
  const load = startLoad(workload, { rate, records });
  const loadBefore = await loadAverage();
  await sleep(WARMUP_MS);
  const atStart = new Map(processes().map(([name, pid]) => [name, { pid, ...usage(pid) }]));
  log(`warmed up for ${WARMUP_MS / 1000} s; soaking for ${flags.minutes} minutes at ${rate} calls/s`);
  /**
   * RSS and live V8 heap of our own processes through the run, so a growth shows whether it levels
   * off (heap pages and allocator arenas settling) or keeps climbing (a leak: the live heap climbs).
   */
  const curve = [];
  const sample = async () => {
    const minute = Math.round((Date.now() - started) / 60_000);
    const row = new Map();
    for (const [name, pid] of processes()) {
      const port = stack.ports.metrics?.[name];
      if (port === undefined) continue;
      row.set(name, { rssMb: usage(pid)?.rssMb ?? null, heapMb: await heapUsedMb(port) });
    }
    curve.push({ minute, row });
  };
  await sample();
  for (let t = WARMUP_MS; t < RUN_MS; t += 60_000) {
    await sleep(Math.min(60_000, RUN_MS - t));
    const minute = Math.round((Date.now() - started) / 60_000);
    if (minute % 5 === 0 || t + 60_000 >= RUN_MS) await sample();
    const errors = tally(records).fiveHundreds + tally(records).unanswered;
    log(`${minute} min: ${records.length} calls, ${errors} errors`);
  }
  const atEnd = new Map(processes().map(([name, pid]) => [name, { pid, ...usage(pid) }]));
  await load.stop();
  const loadAfter = await loadAverage();
  await bench.eventsSettled();
  const checked = await bench.checkWrites(records);

  const measured = records.filter((r) => r.t0 >= started + WARMUP_MS);
  const first = tally(measured.filter((r) => r.t0 < started + WARMUP_MS + EDGE_MS));
  const last = tally(measured.filter((r) => r.t0 >= started + RUN_MS - EDGE_MS));
  const all = tally(measured);
  console.log('');
  console.log(
    `Soak of ${flags.minutes} min at ${rate} calls/s (warm-up ${WARMUP_MS / 1000} s, ${flags.runtime} build on Node ${process.versions.node}); load average before ${loadBefore}, after ${loadAfter}.`,
  );
  console.log('');
  console.log('| process | RSS after warm-up, MB | RSS at end, MB | growth | open fds after warm-up | at end |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, a] of atStart) {
    const b = atEnd.get(name);
    const restarted = b && b.pid !== a.pid ? ' (restarted)' : '';
    const growth = a.rssMb && b?.rssMb ? `${(((b.rssMb - a.rssMb) / a.rssMb) * 100).toFixed(1)}%` : '-';
    console.log(
      `| ${name}${restarted} | ${a.rssMb?.toFixed(1) ?? '-'} | ${b?.rssMb?.toFixed(1) ?? '-'} | ${growth} | ${a.fds ?? '-'} | ${b?.fds ?? '-'} |`,
    );
  }
  console.log('');
  console.log('RSS / live V8 heap (MB) through the run:');
  console.log('');
  console.log(`| process | ${curve.map((c) => `${c.minute} min`).join(' | ')} |`);
  console.log(`|---|${curve.map(() => '---|').join('')}`);
  for (const name of curve[0]?.row.keys() ?? []) {
    const cells = curve.map(({ row }) => {
      const s = row.get(name);
      return `${s?.rssMb?.toFixed(0) ?? '-'} / ${s?.heapMb?.toFixed(0) ?? '-'}`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  console.log('');
  const edge = `${EDGE_MS / 60_000} min`;
  console.log(
    `p99 of the first ${edge}: ${first.p99} ms; of the last ${edge}: ${last.p99} ms (${(last.p99 / first.p99).toFixed(2)}x)`,
  );
  console.log(
    `calls: ${measured.length}; errors: ${all.fiveHundreds} answers of 500 or more, ${all.unanswered} unanswered; skipped by the client: ${load.skipped}`,
  );
  console.log(
    `writes accepted: ${checked.writes.length}; lost: ${checked.missing.size}; events lost: ${checked.eventLost.size}; receipts sent twice: ${checked.twice.size}`,
  );
} finally {
  await bench.stop();
}
