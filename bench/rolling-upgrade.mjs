// `npm run bench:upgrade`: a rolling upgrade rehearsed (issue 41). The previous release
// (UPGRADE_FROM, default HEAD~1: a commit, tag or branch) is checked out into a temporary git
// worktree and installed there (`npm ci`); two replicas of every service and two gateways of it
// run on the local servers, behind a small balancer that sends each call to a gateway that is in
// service (what a Kubernetes Service does with ready pods). Under the mixed workload of
// bench:faults (bench/mixed-workload.mjs, UPGRADE_RATE calls/s, default 20), this release's
// migrations run (`npm run migrate`, while the previous release serves), then every instance is
// replaced by this release's, one at a time: SIGTERM, wait for the exit, start the new one, wait
// until it is ready (a gateway leaves the balancer before and joins it after). Then the accepted
// writes are checked: kept, their events on Kafka, no receipt emailed twice. Prints, per phase,
// the answers by status, and the writes lost and the emails sent twice. Sources through tsx, test
// ports at BENCH_PORT_OFFSET (default 2900). About 10 minutes, most of it installing and starting.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Agent, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import httpProxy from 'http-proxy';
import { WORKLOAD_SETTINGS, collectEvents, loadAverage, prepareWorkload, startLoad } from './mixed-workload.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '2900';
const { provision, repoRoot, startInfra, waitForPort } = await import('../infra/local/servers.mjs');
const { MEMORY_LIMIT_MIB, NODE_FLAGS, PROCESS_ENV, SERVICES, runMigrations, stackPorts } = await import(
  '../infra/local/stack.mjs'
);

const FROM = process.env.UPGRADE_FROM ?? 'HEAD~1';
const RATE = Number(process.env.UPGRADE_RATE ?? 20);
const STEADY_MS = 15_000;
const log = (m) => console.log(`[bench:upgrade] ${new Date().toISOString().slice(11, 19)} ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const git = (...args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();

const fromCommit = git('rev-parse', '--verify', `${FROM}^{commit}`);
const toCommit = git('rev-parse', 'HEAD');
const dataDir = mkdtempSync(join(tmpdir(), 'homereport-bench-upgrade-'));
const previousRoot = join(dataDir, 'previous');
const logDir = join(dataDir, 'logs');
mkdirSync(logDir, { recursive: true });

log(`previous release ${FROM} (${fromCommit.slice(0, 7)}) -> this one (${toCommit.slice(0, 7)}); data in ${dataDir}`);
git('worktree', 'add', '--detach', previousRoot, fromCommit);
const cleanups = [() => git('worktree', 'remove', '--force', previousRoot)];
const cleanUp = async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch((err) => log(`cleanup: ${err.message}`));
  if (!process.env.KEEP_BENCH_DATA) rmSync(dataDir, { recursive: true, force: true });
};

/** The phases of the upgrade (the table's rows), each from when it began; a call counts in the one it was sent in. */
const phases = [];
const enter = (name) => {
  phases.push({ name, at: Date.now() });
  log(name);
};
const phaseOf = (record) => phases.findLast((p) => p.at <= record.t0)?.name ?? phases[0]?.name;

try {
  log('installing the previous release (npm ci in its worktree)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: previousRoot, stdio: 'ignore' });
  provision();
  const infra = await startInfra({ profile: 'test', dataDir, log });
  cleanups.push(() => infra.stop());
  const ports = stackPorts('test', { replicas: 2 });
  const settings = {
    ...PROCESS_ENV,
    PATH: process.env.PATH,
    ...infra.settings,
    ...WORKLOAD_SETTINGS,
    INTERNAL_SECRET: randomBytes(24).toString('hex'),
    EVENT_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    ANON_REQUESTS_PER_HOUR: '1000000',
  };

  // ---- balancers: one per kind of process, over its instances in service (a Kubernetes Service) ----
  // Kept-alive connections to the instances, as a Service's proxy keeps them.
  const proxy = httpProxy.createProxyServer({ xfwd: false, agent: new Agent({ keepAlive: true }) });
  proxy.on('error', (_err, _req, res) => {
    if (res.headersSent) return res.end();
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end('{"error":"balancer: the instance did not answer"}');
  });
  const balancers = new Map();
  const firstServicePort = ports.instances[0].services[SERVICES[0]];
  const balancerPort = (kind) =>
    kind === 'gateway' ? ports.gateway + 5 : firstServicePort + 40 + SERVICES.indexOf(kind);
  for (const kind of [...SERVICES, 'gateway']) {
    const inService = new Set();
    let turn = 0;
    const server = createServer((req, res) => {
      const targets = [...inService];
      if (targets.length === 0) {
        res.writeHead(503, { 'retry-after': '1' });
        return res.end();
      }
      proxy.web(req, res, { target: `http://127.0.0.1:${targets[turn++ % targets.length]}` });
    });
    await new Promise((r) => server.listen(balancerPort(kind), '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => server.close(r)));
    balancers.set(kind, inService);
  }
  const base = `http://127.0.0.1:${balancerPort('gateway')}`;
  const upstreams = Object.fromEntries(
    SERVICES.map((s) => [`${s.toUpperCase()}_URL`, `http://127.0.0.1:${balancerPort(s)}`]),
  );

  // ---- processes of either release ----
  const running = new Map();
  const launch = async (root, release, kind, k) => {
    const instance = ports.instances[k];
    const name = k === 0 ? kind : `${kind}-${k + 1}`;
    const port = kind === 'gateway' ? instance.gateway : instance.services[kind];
    const dir = kind === 'gateway' ? 'gateway' : `services/${kind}`;
    const out = openSync(join(logDir, `${name}-${release}.log`), 'a');
    const child = spawn(process.execPath, [...NODE_FLAGS[kind], '--import', 'tsx', `${dir}/src/server.ts`], {
      cwd: root,
      stdio: ['ignore', out, out],
      env: {
        ...settings,
        ...upstreams,
        PUBLIC_URL: 'http://127.0.0.1:8080',
        METRICS_PORT: String(instance.metrics[kind]),
        MEMORY_LIMIT_MIB: String(MEMORY_LIMIT_MIB[kind]),
        PORT: String(port),
        SERVICE_NAME: kind,
      },
    });
    running.set(name, { child, release, port, kind });
    await waitForPort(port, { name: `${name} (${release})`, proc: child, timeoutMs: 180_000 });
    balancers.get(kind).add(port);
  };
  /** Out of its balancer, a moment for the calls it has to finish, then SIGTERM (SIGKILL after 12 s). */
  const stopOne = async (name, drainMs = 0) => {
    const proc = running.get(name);
    if (!proc) return;
    balancers.get(proc.kind)?.delete(proc.port);
    if (drainMs > 0) await sleep(drainMs);
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
    const exited = new Promise((r) => proc.child.once('exit', r));
    proc.child.kill('SIGTERM');
    const timer = setTimeout(() => proc.child.kill('SIGKILL'), 12_000);
    await exited;
    clearTimeout(timer);
  };
  cleanups.push(async () => {
    for (const name of [...running.keys()].reverse()) await stopOne(name);
  });

  // ---- the previous release, two of everything ----
  log('previous release: its migrations, then two of every process');
  execFileSync('npm', ['run', '--silent', 'migrate'], {
    cwd: previousRoot,
    env: { ...process.env, ...settings },
    stdio: 'ignore',
  });
  for (const k of [0, 1]) await Promise.all(SERVICES.map((s) => launch(previousRoot, 'previous', s, k)));
  for (const k of [0, 1]) await launch(previousRoot, 'previous', 'gateway', k);

  const directMongoUrl = infra.settings.MONGO_URL;
  const workload = await prepareWorkload({ base, settings, directMongoUrl, log });
  cleanups.push(() => workload.mongo.close());
  const events = await collectEvents(settings.KAFKA_BROKERS);
  cleanups.push(() => events.stop());
  const records = [];
  log(`mixed workload at ${RATE} calls/s through the balancer`);
  enter('previous release, steady');
  const load = startLoad(workload, { rate: RATE, records });
  await sleep(STEADY_MS);

  enter("this release's migrations (npm run migrate) under the previous release");
  await runMigrations('source', settings, SERVICES, log);

  for (const kind of [...SERVICES, 'gateway']) {
    for (const k of [0, 1]) {
      const name = k === 0 ? kind : `${kind}-${k + 1}`;
      enter(`replacing ${name}`);
      // Calls already sent to it finish; new ones go to the other instance.
      await stopOne(name, 2000);
      await launch(repoRoot, 'current', kind, k);
    }
  }
  enter('this release, steady');
  await sleep(STEADY_MS);
  await load.stop();

  log('waiting for the events and emails to settle');
  for (let last = -1, quiet = 0, waited = 0; quiet < 5 && waited < 90; waited++) {
    await sleep(1000);
    quiet = events.seen.size === last ? quiet + 1 : 0;
    last = events.seen.size;
  }
  const { checkWrites } = await import('./mixed-workload.mjs');
  const checked = await checkWrites(workload, records, { events: events.seen, maildevUrl: settings.MAILDEV_URL });

  const statusesOf = (rows) => {
    const counts = {};
    for (const r of rows) {
      const key =
        r.status === 0 ? `no answer (${r.error})` : r.status === 503 && Number(r.retryAfter) > 0 ? '503+RA' : r.status;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return Object.entries(counts)
      .sort(([a], [b]) => String(a).localeCompare(String(b)))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
  };
  const bad = (rows) =>
    rows.filter((r) => r.status === 0 || (r.status >= 500 && !(r.status === 503 && Number(r.retryAfter) > 0)));
  console.log(
    `\nRolling upgrade ${fromCommit.slice(0, 7)} -> ${toCommit.slice(0, 7)}, two replicas, ${RATE} calls/s, load average ${await loadAverage()}`,
  );
  console.log('| phase | calls | answers by status | ≥500 other than 503 with Retry-After, or no answer |');
  console.log('|---|---|---|---|');
  for (const { name } of phases) {
    const rows = records.filter((r) => phaseOf(r) === name);
    console.log(`| ${name} | ${rows.length} | ${statusesOf(rows)} | ${bad(rows).length} |`);
  }
  console.log(`| all | ${records.length} | ${statusesOf(records)} | ${bad(records).length} |`);
  const writes = checked.writes.length;
  console.log(
    `\naccepted writes ${writes}: lost ${checked.missing.size}, events lost ${checked.eventLost.size}, receipts emailed twice ${checked.twice.size}; calls skipped (client far behind) ${load.skipped}`,
  );
  for (const [id, copies] of checked.twice)
    console.log(`  twice: request ${id} at ${copies.map((c) => c.at).join(', ')}`);
  const failed =
    bad(records).length > 0 || checked.missing.size > 0 || checked.eventLost.size > 0 || checked.twice.size > 0;
  console.log(failed ? '\ngoal NOT met' : '\ngoal met: no 5xx but 503 with Retry-After, nothing lost, no email twice');
  process.exitCode = failed ? 1 : 0;
} catch (err) {
  log(`failed: ${err.stack ?? err}`);
  process.exitCode = 2;
} finally {
  await cleanUp();
}
