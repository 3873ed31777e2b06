// `npm run bench:soak -- --minutes 30`: does the stack stay the same over time? Starts the real
// servers and the whole stack, and sends the mixed workload of bench:faults (bench/mixed-workload.mjs)
// at half of the calls per second this machine sustains for the given minutes. Prints the resident
// memory (RSS, read every 10 s: the median of the first and of the last five minutes after a
// warm-up, and per five minutes with the live V8 heap) and open file descriptors of every process
// (the services, the gateway and the servers), p99 of the first and of the last five minutes (of
// the first and last fifth for runs under 25 minutes) and every error (5xx or no answer).
// Goals (issue 22): RSS growth under 10% after warm-up, p99 drift under 1.2x, 0 errors,
// descriptors flat. Use --minutes 2 while developing.
//
// Flags: --minutes N (default 30), --rate N (calls per second instead of half the capacity),
// --warmup-seconds N (default 300, or a sixth of a shorter run), --runtime R (compiled, the
// default: dist/ under plain node as production runs, built first where stale; or source: tsx,
// where every process holds some 30-40 MB more). BENCH_PORT_OFFSET moves every port (default
// 2800); KEEP_BENCH_DATA=1 keeps data and logs.
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chooseRate, loadAverage, startLoad, startWorkloadStack, tally } from './mixed-workload.mjs';
import { pct } from './support.mjs';

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
/**
 * Left out of every comparison. Five minutes: with 60 s, requests and files were still settling
 * (RSS medians 126 and 102 MB in minutes 1-6, then 138-140 and 107-109 to minute 30, live heap
 * flat throughout), so "growth" measured their warm-up.
 */
const WARMUP_MS = Number(flags['warmup-seconds'] ?? Math.min(300, RUN_MS / 6 / 1000)) * 1000;
/** The two windows compared for drift and growth: five minutes, or a fifth of a shorter run. */
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
  // RSS swings with each process's garbage collections (a tenth or more within a minute), so one
  // reading at each end says more about where the collector was than about growth: RSS and
  // descriptors are read every 10 s from the start and the medians of windows compared. The live
  // V8 heap, read every minute, tells a leak (it climbs) from pages a process keeps (RSS settles
  // above it).
  const samples = [];
  const sampleUsage = () => {
    const t = Date.now();
    for (const [name, pid] of processes()) {
      const u = usage(pid);
      if (u) samples.push({ t, name, pid, ...u });
    }
  };
  const heaps = [];
  const sampleHeaps = async () => {
    const t = Date.now();
    for (const [name] of processes()) {
      const port = stack.ports.metrics?.[name];
      if (port !== undefined) heaps.push({ t, name, heapMb: await heapUsedMb(port) });
    }
  };
  sampleUsage();
  await sampleHeaps();
  const sampler = setInterval(sampleUsage, 10_000);
  const heapSampler = setInterval(() => void sampleHeaps(), 60_000);
  await sleep(WARMUP_MS);
  const measuredFrom = Date.now();
  log(`warmed up for ${WARMUP_MS / 1000} s; soaking for ${flags.minutes} minutes at ${rate} calls/s`);
  for (let t = WARMUP_MS; t < RUN_MS; t += 60_000) {
    await sleep(Math.min(60_000, RUN_MS - t));
    const errors = tally(records).fiveHundreds + tally(records).unanswered;
    log(`${Math.round((Date.now() - started) / 60_000)} min: ${records.length} calls, ${errors} errors`);
  }
  clearInterval(sampler);
  clearInterval(heapSampler);
  sampleUsage();
  const measuredTo = Date.now();
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
  const median = (values) =>
    pct(
      values.filter((v) => v !== null && v !== undefined),
      50,
    );
  const inWindow = (list, name, from, to) => list.filter((x) => x.name === name && x.t >= from && x.t <= to);
  const edgeMinutes = EDGE_MS / 60_000;
  const minutes = (m) => (Number.isInteger(edgeMinutes) ? m.toFixed(0) : m.toFixed(1));
  console.log(
    `| process | RSS, median of the first ${edgeMinutes} min after warm-up, MB | of the last ${edgeMinutes} min | growth | lowest / highest reading after warm-up | open fds after warm-up | at end |`,
  );
  console.log('|---|---|---|---|---|---|---|');
  const names = [...new Set(samples.map((x) => x.name))];
  for (const name of names) {
    const mine = samples.filter((x) => x.name === name);
    const measuredOnes = mine.filter((x) => x.t >= measuredFrom);
    const a = median(inWindow(samples, name, measuredFrom, measuredFrom + EDGE_MS).map((x) => x.rssMb));
    const b = median(inWindow(samples, name, measuredTo - EDGE_MS, measuredTo).map((x) => x.rssMb));
    const restarted = new Set(mine.map((x) => x.pid)).size > 1 ? ' (restarted)' : '';
    const growth = a && b ? `${(((b - a) / a) * 100).toFixed(1)}%` : '-';
    const rss = measuredOnes.map((x) => x.rssMb);
    console.log(
      `| ${name}${restarted} | ${a?.toFixed(1) ?? '-'} | ${b?.toFixed(1) ?? '-'} | ${growth} | ${Math.min(...rss).toFixed(0)} / ${Math.max(...rss).toFixed(0)} | ${measuredOnes[0]?.fds ?? '-'} | ${mine.at(-1)?.fds ?? '-'} |`,
    );
  }
  console.log('');
  // The same medians through the whole run, warm-up included, in windows of the compared length,
  // with the live heap.
  const windows = [];
  for (let from = started; from + EDGE_MS / 2 < measuredTo; from += EDGE_MS)
    windows.push([from, Math.min(from + EDGE_MS, measuredTo)]);
  console.log(`RSS median / live V8 heap median (MB) per ${edgeMinutes} min from the start (warm-up included):`);
  console.log('');
  console.log(
    `| process | ${windows.map((_, i) => `${minutes(i * edgeMinutes)}-${minutes((i + 1) * edgeMinutes)} min`).join(' | ')} |`,
  );
  console.log(`|---|${windows.map(() => '---|').join('')}`);
  for (const name of names.filter((n) => heaps.some((h) => h.name === n))) {
    const cells = windows.map(([from, to]) => {
      const rss = median(inWindow(samples, name, from, to).map((x) => x.rssMb));
      const heap = median(inWindow(heaps, name, from, to).map((x) => x.heapMb));
      return `${rss?.toFixed(0) ?? '-'} / ${heap?.toFixed(0) ?? '-'}`;
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
