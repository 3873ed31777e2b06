// `npm run bench:faults`: does the site answer, recover by itself and lose nothing while a server
// fails? Starts the real servers with Toxiproxy between them and the services (LOCAL_TOXIPROXY),
// the whole stack, and the mixed workload (bench/mixed-workload.mjs) at half of the calls per
// second this machine sustains. Then, in turn, each of MongoDB, Redis, Kafka, S3 and SMTP is
//   - unreachable for 20 s (the proxy closes its connections and refuses new ones),
//   - hung for 20 s (connections stay open, no byte passes either way),
//   - slowed by 500 ms for 20 s (every answer delayed),
// and each service and the gateway is killed once with SIGKILL (the stack starts it again, as
// Kubernetes would restart the container). Each fault is followed by 10 s (kills: 20 s) of the
// same load before the next one, longer (up to a minute) until answers are normal again, so a
// slow recovery is measured whole and not counted against the next fault. After the last, the writes the stack accepted are checked.
//
// For each fault it prints: calls answered; answers of 500 or more, and how many of those were
// 503 with Retry-After; calls that got no answer within 10 s; p99 during the fault; seconds from
// the fault's end until answers are normal again (no 5xx, no unanswered call, and no half second
// with slow calls: two or more, and a tenth or more of its calls, over 2.5x the p99 before the
// faults, at least +250 ms); accepted writes lost (coverage
// requests and leads not stored, uploads without a file); events lost (request-submitted,
// lead-received never on Kafka); requester receipts sent twice (in the row of the fault begun
// last by 2 s after the first copy arrived). Under the table, the p99 of each
// kind of call during each fault, slowest first (which calls miss the 2 s goal).
// Goals (issue 22): no answer slower than 2 s beyond the injected latency, no 500, recovery
// within 5 s, 0 lost, 0 duplicates. The machine is shared: the load average is printed with it.
//
// Flags:
//   --only a,b        run only the faults whose id contains one of these (ids: mongo-down,
//                     mongo-hang, mongo-slow, ... smtp-slow, kill-auth, ... kill-gateway; e.g.
//                     --only redis, --only hang, --only kill-gateway)
//   --list            print the fault ids and stop
//   --fault-seconds N length of each dependency fault (default 20)
//   --after-seconds N load after each fault before the next (default 10; kills: twice that)
//   --rate N          calls per second instead of half the measured capacity
//   --records FILE    also write every call and the faults' times as JSON, to look into a row
//   --runtime R       compiled (default: dist/, as production and the image run, built first where
//                     older than the sources) or source (TypeScript through tsx, as the tests run;
//                     a process then starts in over twice the CPU time, all of it part of a kill's
//                     recovery)
//   BENCH_PORT_OFFSET moves every port (default 2700); KEEP_BENCH_DATA=1 keeps data and logs.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chooseRate, loadAverage, p, startLoad, startWorkloadStack, tally } from './mixed-workload.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '2700';
process.env.LOCAL_TOXIPROXY = '1';
const log = (m) => console.log(`[bench] ${m}`);

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    list: { type: 'boolean', default: false },
    'fault-seconds': { type: 'string', default: '20' },
    'after-seconds': { type: 'string', default: '10' },
    rate: { type: 'string' },
    records: { type: 'string' },
    runtime: { type: 'string', default: 'compiled' },
  },
});
const FAULT_MS = Number(flags['fault-seconds']) * 1000;
const AFTER_MS = Number(flags['after-seconds']) * 1000;
const DEPENDENCIES = ['mongo', 'redis', 'kafka', 's3', 'smtp'];
const PROCESSES = ['auth', 'requests', 'files', 'zipcodes', 'leads', 'notifications', 'gateway'];

/** Every fault, in the order run: `inject` starts it; `clear` (dependency faults) ends it. */
function allFaults(toxiproxy, stack) {
  const dependencyFaults = DEPENDENCIES.flatMap((dep) => [
    { id: `${dep}-down`, label: `${dep} unreachable`, inject: () => toxiproxy.disable(dep) },
    { id: `${dep}-hang`, label: `${dep} hung`, inject: () => toxiproxy.hang(dep) },
    { id: `${dep}-slow`, label: `${dep} +500 ms`, inject: () => toxiproxy.slow(dep, 500), slow: true },
  ]).map((f) => ({ ...f, clear: () => toxiproxy.reset() }));
  const kills = PROCESSES.map((name) => ({
    id: `kill-${name}`,
    label: `${name} SIGKILL`,
    kill: true,
    inject: () => {
      const proc = stack.processes.find((x) => x.name === name);
      proc.child.kill('SIGKILL');
    },
  }));
  return [...dependencyFaults, ...kills];
}

const only = flags.only
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const wanted = (fault) => !only || only.some((o) => fault.id.includes(o));

if (flags.list) {
  for (const f of allFaults(null, null)) console.log(f.id);
  process.exit(0);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const between = (records, from, to) => records.filter((r) => r.t0 >= from && r.t0 < to);
const failed = (r) => r.status === 0 || r.status >= 500;

/**
 * The calls a fault's row counts: those sent while it lasted (kills: until the next fault), less
 * those that failed after the next fault began, plus the calls sent earlier that this fault made
 * fail (killing the gateway cuts the calls still waiting): each call in one row, the one that
 * made it fail.
 */
const rowCalls = (records, { start, to, until }) =>
  records.filter((r) =>
    r.t0 >= start && r.t0 < to ? !(failed(r) && r.t1 > until) : r.t0 < start && r.t1 > start && failed(r),
  );

/**
 * Whether a group of calls is slow: two or more of them, and a tenth or more, took over slowMs.
 * Not its p99: a half second holds a few calls (8 at 16 calls/s), so its p99 is its slowest
 * call, and on a shared machine one call in a few hundred is that slow before any fault too (a
 * row read 12.5 s to normal for a gateway back in 1 s, from one 558 ms call 12 s later). A
 * recovery still under way slows most calls, not one.
 */
function slow(calls, slowMs) {
  const over = calls.filter((r) => r.status > 0 && r.t1 - r.t0 > slowMs).length;
  return over >= 2 && over * 10 >= calls.length;
}

/** Whether the calls that ended in the last `ms` were normal: no 5xx, none unanswered, not slow. */
function normalNow(records, slowMs, ms = 2000) {
  const now = Date.now();
  const recent = records.filter((r) => r.t1 >= now - ms);
  return recent.length > 0 && !recent.some(failed) && !slow(recent, slowMs);
}

/**
 * Seconds from `end` until answers are normal for good within the window after it: the end of the
 * last half second that had a 5xx, an unanswered call or slow calls (`slow`). null: never normal.
 */
function secondsToNormal(records, end, until, slowMs) {
  let lastBad = null;
  for (let t = end; t + 500 <= until; t += 500) {
    // Calls still waiting when the next fault starts may be answered by that fault: left out.
    const bucket = between(records, t, t + 500).filter((r) => r.t1 <= until);
    const bad = bucket.some(failed) || slow(bucket, slowMs);
    if (bad) lastBad = t + 500;
  }
  if (lastBad !== null && lastBad >= until - 500) return null;
  return lastBad === null ? 0 : (lastBad - end) / 1000;
}

const bench = await startWorkloadStack({ name: 'faults', log, runtime: flags.runtime });
const { infra, stack, workload } = bench;
try {
  const faults = allFaults(infra.toxiproxy, stack).filter(wanted);
  if (faults.length === 0) throw new Error(`no fault matches --only ${flags.only}; see --list`);

  const rate = await chooseRate(workload, flags.rate, log);
  const records = [];
  const load = startLoad(workload, { rate, records });
  const loadBefore = await loadAverage();
  await sleep(10_000);
  const baselineFrom = Date.now() - 8000;
  const baseline = tally(between(records, baselineFrom, Date.now()));
  const slowMs = Math.max(2.5 * baseline.p99, baseline.p99 + 250);
  log(`baseline: p99 ${baseline.p99} ms, ${baseline.fiveHundreds} 5xx; "slow" means over ${slowMs} ms`);

  const ran = [];
  for (const fault of faults) {
    const start = Date.now();
    log(`${fault.label}: injecting`);
    await fault.inject();
    let end = start;
    if (!fault.kill) {
      await sleep(FAULT_MS);
      await fault.clear();
      end = Date.now();
    }
    const after = fault.kill ? 2 * AFTER_MS : AFTER_MS;
    await sleep(after);
    // Not normal yet: more load (a minute at most) until it is, so the next fault starts clean.
    for (let waited = 0; waited < 60_000 && !normalNow(records, slowMs); waited += 500) await sleep(500);
    ran.push({ fault, start, end, until: Date.now() });
    log(`${fault.label}: done`);
  }
  await load.stop();
  const loadAfter = await loadAverage();

  log('waiting for events and emails to settle');
  await bench.eventsSettled();
  if (flags.records) {
    const faultTimes = ran.map(({ fault, start, end, until }) => ({ id: fault.id, start, end, until }));
    writeFileSync(flags.records, JSON.stringify({ faults: faultTimes, records }));
  }
  const checked = await bench.checkWrites(records);

  // A receipt sent twice counts in the row of the fault that cut its first copy off from the
  // record that would have stopped the second: the last fault begun by RECORD_MS after that copy
  // arrived. Not by when its request was accepted: the notifications kill lands a few ms after
  // a copy went out, and that request was accepted in the row before (every full run's one
  // duplicate was filed under the leads kill, the fault before the notifications kill).
  const RECORD_MS = 2000; // the record is one MongoDB write (MONGO_TIMEOUT_MS, 1.5 s), and some slack
  const twiceIn = new Map(ran.map((r) => [r, []]));
  const twiceOutside = [];
  for (const [id, copies] of checked.twice) {
    const row = ran.findLast((r) => r.start <= copies[0].at + RECORD_MS);
    (row ? twiceIn.get(row) : twiceOutside).push({ id, copies });
  }
  const rows = ran.map((ranFault) => {
    const { fault, start, end, until } = ranFault;
    const during = rowCalls(records, { start, to: fault.kill ? until : end, until });
    const t = tally(during);
    const window = between(records, start, until);
    const lost = window.filter((r) => r.write && checked.missing.has(r.write.id)).length;
    const eventsLost = window.filter((r) => r.write && checked.eventLost.has(r.write.id)).length;
    const twiceSent = twiceIn.get(ranFault);
    const twice = twiceSent.length;
    const normal = secondsToNormal(records, end, until, slowMs);
    const statuses = {};
    for (const r of during)
      if (failed(r)) {
        const key = `${r.kind} ${r.status || 'no answer'}${r.status === 503 && !(Number(r.retryAfter) > 0) ? ' without Retry-After' : ''}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
    // p99 of each kind of call during the fault (answered calls, 503s included): which calls are slow.
    const byKind = {};
    for (const r of during) if (r.status > 0) byKind[r.kind] = [...(byKind[r.kind] ?? []), r];
    const kinds = Object.entries(byKind)
      .map(([kind, calls]) => ({ kind, n: calls.length, p99: p(calls, 99) }))
      .sort((a, b) => b.p99 - a.p99);
    return { fault, t, normal, lost, eventsLost, twice, twiceSent, statuses, kinds, start, end, until };
  });

  console.log('');
  console.log(
    `Mixed workload at ${rate} calls/s; baseline p99 ${baseline.p99} ms; load average before ${loadBefore}, after ${loadAfter}.`,
  );
  console.log(`Skipped by the client (over 400 waiting): ${load.skipped}. Writes accepted: ${checked.writes.length}.`);
  console.log('');
  console.log(
    '| fault | answered | ≥500 (503 + Retry-After) | no answer | p99 during, ms | s to normal | writes lost | events lost | emails twice |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { fault, t, normal, lost, eventsLost, twice, end, until } of rows) {
    console.log(
      `| ${fault.label} | ${t.answered} | ${t.fiveHundreds} (${t.with503}) | ${t.unanswered} | ${t.p99} | ${normal === null ? `> ${((until - end) / 1000).toFixed(1)}` : normal} | ${lost} | ${eventsLost} | ${twice} |`,
    );
  }
  console.log('');
  for (const { fault, kinds } of rows) {
    console.log(`${fault.label}, p99 by call, ms: ${kinds.map((k) => `${k.kind} ${k.p99} (${k.n})`).join(', ')}`);
  }
  console.log('');
  for (const { fault, statuses } of rows) {
    if (Object.keys(statuses).length > 0)
      console.log(`${fault.label}, failed calls during the fault: ${JSON.stringify(statuses)}`);
  }
  // Which receipts went out twice, and whether the copies are one message sent again (the same
  // Message-ID: one event whose record of the send was lost) or two messages (two events).
  const copiesText = ({ id, copies }, from) =>
    `request ${id}: ${copies.length} copies at ${copies.map((c) => `${((c.at - from) / 1000).toFixed(2)} s`).join(', ')}, ${new Set(copies.map((c) => c.messageId)).size === 1 ? `one Message-ID (${copies[0].messageId})` : 'different Message-IDs'}`;
  for (const { fault, twiceSent, start } of rows) {
    for (const sent of twiceSent)
      console.log(`${fault.label}, receipt twice (from the fault's start): ${copiesText(sent, start)}`);
  }
  for (const sent of twiceOutside)
    console.log(`before any fault, receipt twice (from the first fault's start): ${copiesText(sent, ran[0].start)}`);
  const missed = rows.filter(
    (r) => r.t.fiveHundreds > r.t.with503 || r.lost || r.eventsLost || r.twice || r.normal === null || r.normal > 5,
  );
  if (twiceOutside.length > 0) missed.push({ fault: { id: 'before any fault (emails twice)' } });
  console.log(
    missed.length === 0
      ? 'Goals met: no 500, normal within 5 s, nothing lost, no duplicates.'
      : `Goals missed in: ${missed.map((r) => r.fault.id).join(', ')}`,
  );
} finally {
  await bench.stop();
}
