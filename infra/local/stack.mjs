// Runs the gateway and every service as child processes, with one combined log stream (each
// line prefixed and coloured) or one log file per process. Tests run the TypeScript sources
// through tsx (several people edit them at once, so nothing may wait for a build); `npm start`
// runs the compiled build (`npm run build`) with plain node, as the image does.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { heapFlagsFor } from '../../packages/kit/bin/heap.mjs';
import { MIGRATED_SERVICES } from '../../packages/kit/bin/migrate.mjs';
import { repoRoot, waitForPort } from './servers.mjs';

export const SERVICES = ['auth', 'requests', 'files', 'zipcodes', 'leads', 'notifications'];

/**
 * How many instances of every service, and gateways, the stack runs: LOCAL_REPLICAS (default 1).
 * Two is the mode that shows replicas are as correct as one (test/replicas, README "Two of everything").
 */
export function replicaCount(value = process.env.LOCAL_REPLICAS ?? '1') {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 4) throw new Error(`LOCAL_REPLICAS must be 1 to 4, not "${value}"`);
  return n;
}

/**
 * Ports per profile; SERVICE_PORT_BASE, PORT and METRICS_PORT_BASE move them, and `offset` (test
 * profile) replaces TEST_PORT_OFFSET. With replicas, instance k (from 0) of a service listens 10·k
 * above the first instance's port, gateway k on the gateway port + k, and its Prometheus ports
 * 7·k above the first's. `services`, `gateway` and `metrics` are the first instance's;
 * `instances` lists every instance's.
 */
export function stackPorts(profile, { offset = Number(process.env.TEST_PORT_OFFSET ?? 0), replicas = 1 } = {}) {
  const shift = profile === 'test' ? offset : 0;
  const base = Number(process.env.SERVICE_PORT_BASE ?? (profile === 'test' ? 24000 + shift : 4000));
  const gatewayBase = Number(process.env.PORT ?? (profile === 'test' ? 28080 + shift : 8080));
  // Prometheus ports (api.md, "Operations"): the gateway on the base, services after it in order.
  // Tests use 23464: with the largest offset (3500) still below the ephemeral range.
  const metricsBase = Number(process.env.METRICS_PORT_BASE ?? (profile === 'test' ? 23464 + shift : 9464));
  const instances = Array.from({ length: replicas }, (_, k) => ({
    services: Object.fromEntries(SERVICES.map((name, i) => [name, base + 10 * k + i + 1])),
    gateway: gatewayBase + k,
    metrics: {
      gateway: metricsBase + 7 * k,
      ...Object.fromEntries(SERVICES.map((name, i) => [name, metricsBase + 7 * k + i + 1])),
    },
  }));
  const [first] = instances;
  return { ...first, instances };
}

const COLORS = [36, 33, 35, 32, 34, 91, 96];

/**
 * The memory limit of each process's container in MiB, as the Kubernetes manifests set it
 * (infra/k8s/base; infra/test/k8s.test.ts holds them equal): the local stack sizes every process's
 * heap for it, as the image does from the pod's limit, so what runs here (and what bench:memory
 * measures) is what runs there. auth's is larger for argon2id's native memory per sign-in.
 */
export const MEMORY_LIMIT_MIB = {
  gateway: 256,
  auth: 512,
  requests: 256,
  files: 256,
  zipcodes: 256,
  leads: 256,
  notifications: 256,
};

/**
 * V8 flags of a process: its heap sized from its container's limit (packages/kit/bin/heap.mjs, the
 * one place that computes it, used by the image's CMD too), nothing else. The former per-process
 * flags (a 1-2 MB young generation, `--optimize-for-size` for auth, notifications and zipcodes)
 * only lowered the idle figure on an unbounded heap: a heap sized from the limit gets a young
 * generation that small from V8 itself (docs/decisions/021).
 */
export const NODE_FLAGS = Object.fromEntries(
  Object.entries(MEMORY_LIMIT_MIB).map(([name, mib]) => [name, heapFlagsFor(mib)]),
);

/**
 * Environment of every process, before the caller's (which may override it). MALLOC_ARENA_MAX:
 * glibc gives each thread that allocates (libuv's pool, V8's workers) a malloc arena of its own,
 * up to 8 per core, each keeping freed memory; two arenas hold 2-3 MB less per idle process
 * (bench:memory) for no measured cost in throughput. The usual production setting for Node and
 * the JVM on glibc. The Dockerfile and the ConfigMap of the Kubernetes manifests set the same.
 */
export const PROCESS_ENV = { MALLOC_ARENA_MAX: '2' };

/**
 * Waits before restarting a crashed process: none after its first crash, as the kubelet restarts a
 * container at once the first time (a wait there is only seconds more of outage: bench:faults,
 * kills), then 1 s, doubling up to 30 s while it keeps crashing; reset once it ran a minute.
 */
export function restartDelayMs(crashesInARow) {
  if (crashesInARow <= 1) return 0;
  return Math.min(1000 * 2 ** (crashesInARow - 2), 30_000);
}
const STABLE_AFTER_MS = 60_000;

/**
 * Node condition under which the workspace packages (kit, contracts) resolve to their compiled
 * dist/ (their package.json `exports`); without it they resolve to their TypeScript sources.
 */
export const DIST_CONDITION = 'homereport-dist';

/**
 * The command line of one process. `source`: TypeScript through tsx (tests, benchmarks);
 * `watch`: tsx watch, restarted on every saved change (`npm run dev`); `compiled`: node on
 * dist/ (`npm start`, the image).
 */
export function processArgs(runtime, name, flags = []) {
  const dir = name === 'gateway' ? 'gateway' : `services/${name}`;
  if (runtime === 'compiled') return [...flags, `--conditions=${DIST_CONDITION}`, `${dir}/dist/server.js`];
  const tsxCli = join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
  if (runtime === 'watch') return [tsxCli, 'watch', '--clear-screen=false', ...flags, `${dir}/src/server.ts`];
  return [...flags, '--import', 'tsx', `${dir}/src/server.ts`];
}

/**
 * `npm run migrate` for these services' databases, with the runtime the stack runs (the compiled
 * commands for `compiled`, the sources through tsx otherwise); a failure stops the start.
 */
export async function runMigrations(runtime, env, services = SERVICES, log = console.log) {
  const withDatabase = services.filter((s) => MIGRATED_SERVICES.includes(s));
  if (withDatabase.length === 0) return;
  const args = [
    ...(runtime === 'compiled' ? [`--conditions=${DIST_CONDITION}`] : []),
    join(repoRoot, 'packages/kit/bin/migrate.mjs'),
    ...withDatabase,
  ];
  const started = Date.now();
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk) => {
      output += chunk;
    });
  const code = await new Promise((resolve) => child.once('exit', (c, signal) => resolve(signal ? 1 : c)));
  if (code !== 0) throw new Error(`npm run migrate failed (exit ${code}):\n${output.trim()}`);
  const created = output.split('\n').filter((line) => line.includes('created'));
  log(
    `[stack] migrations done in ${((Date.now() - started) / 1000).toFixed(1)} s${created.length > 0 ? `: ${created.join('; ')}` : ''}`,
  );
}

/**
 * Starts services then the gateway, waits until each listens, and returns stop(), which
 * stops the gateway first so no request reaches a service that is already going away.
 * A process that exits on its own while the stack runs is reported and started again, with a
 * growing pause between restarts when it keeps crashing. `processSettings.<name>` adds settings of
 * one process only (a benchmark runs the gateway with METRICS_PORT=0); with replicas it applies to
 * every instance, and `processSettings['<name>-2']` to the second only.
 *
 * `replicas` (LOCAL_REPLICAS, default 1): instances of every service and gateways, all on the same
 * servers. Instance k is named `<name>-<k+1>` from the second on (its log prefix and file), and
 * gateway k sends to instance k of each service, as each service's calls to another do: in
 * Kubernetes a Service spreads calls over the replicas; here each path reaches one, and the
 * paths together reach every instance. The consumers of a service share its consumer group.
 * `url` is the first gateway's, `urls` every gateway's. `services` (default all) starts only
 * those: a suite that needs a few (the span test) leaves the others' CPU to the machine; the
 * gateway still knows every service's address, and a call to one not started fails as it would
 * with that service down. `migrate` (default true): the databases' migrations run first
 * (`npm run migrate`; a service does not start without its indexes, decision 028).
 */
export async function startStack({
  profile,
  settings,
  processSettings = {},
  logDir,
  pretty,
  runtime = 'source',
  log = console.log,
  replicas = replicaCount(),
  offset,
  services = SERVICES,
  migrate = true,
}) {
  if (runtime === 'compiled') {
    const missing = ['gateway', ...SERVICES.map((s) => `services/${s}`), 'packages/kit', 'packages/contracts'].filter(
      (dir) => !existsSync(join(repoRoot, dir, 'dist')),
    );
    if (missing.length > 0) throw new Error(`no compiled build in ${missing.join(', ')}: run npm run build`);
  }
  const ports = stackPorts(profile, { offset, replicas });
  const upstreams = (instance) =>
    Object.fromEntries(SERVICES.map((s) => [`${s.toUpperCase()}_URL`, `http://127.0.0.1:${instance.services[s]}`]));
  const common = {
    ...PROCESS_ENV,
    ...process.env,
    ...settings,
    LOG_FORMAT: pretty ? 'pretty' : 'json',
    FORCE_COLOR: pretty ? '1' : '0',
  };
  if (migrate) await runMigrations(runtime, common, services, log);
  const procs = [];
  let stopping = false;
  /** Starts instance k of a process: its ports, its upstreams and its name in the logs. */
  const launch = (service, k) => {
    const instance = ports.instances[k];
    const port = service === 'gateway' ? instance.gateway : instance.services[service];
    const name = k === 0 ? service : `${service}-${k + 1}`;
    const extra = { ...processSettings[service], ...(k === 0 ? {} : processSettings[name]) };
    const color = COLORS[procs.length % COLORS.length];
    const prefix = `\x1b[${color}m${name.padEnd(replicas === 1 ? 13 : 15)}|\x1b[0m `;
    // With a log folder each process writes its file itself: lines passed through this process
    // would cost it (a benchmark's load generator, the test runner) CPU for every line logged.
    let sink;
    if (logDir) {
      mkdirSync(logDir, { recursive: true });
      sink = openSync(join(logDir, `${name}.log`), 'a');
    }
    const proc = { name, service, child: null, port, sink, crashes: 0, restartTimer: null };
    const start = () => {
      const startedAt = Date.now();
      const child = spawn(process.execPath, processArgs(runtime, service, NODE_FLAGS[service]), {
        cwd: repoRoot,
        env: {
          ...common,
          ...upstreams(instance),
          METRICS_PORT: String(instance.metrics[service]),
          // What the manifests pass from the pod's limit (the heap flags above come from it).
          MEMORY_LIMIT_MIB: String(MEMORY_LIMIT_MIB[service]),
          ...extra,
          PORT: String(port),
          SERVICE_NAME: service,
        },
        stdio: sink === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', sink, sink],
      });
      if (sink === undefined) {
        const write = (line) => process.stdout.write(`${prefix}${line}\n`);
        for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', write);
      }
      child.once('exit', (code, signal) => {
        if (stopping) return;
        proc.crashes = Date.now() - startedAt > STABLE_AFTER_MS ? 1 : proc.crashes + 1;
        const delay = restartDelayMs(proc.crashes);
        const reason = signal ? `killed by ${signal}` : `exit code ${code}`;
        const msg = `${name} exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`}); restarting ${delay === 0 ? 'at once' : `in ${delay / 1000} s`}`;
        // Also in the process's own log file as an error line, so whoever reads that log sees it;
        // the reason field as every ERROR line has one (test/log-check.ts).
        if (sink !== undefined)
          writeSync(sink, `${JSON.stringify({ level: 'error', time: Date.now(), name: 'stack', reason, msg })}\n`);
        log(`[stack] ${msg}`);
        proc.restartTimer = setTimeout(() => {
          proc.restartTimer = null;
          if (!stopping) start();
        }, delay);
      });
      proc.child = child;
    };
    start();
    procs.push(proc);
    return waitForPort(port, { name, proc: proc.child, timeoutMs: service === 'gateway' ? 60_000 : 120_000 });
  };
  const instanceIndexes = ports.instances.map((_, k) => k);

  const stop = async () => {
    stopping = true;
    for (const proc of procs) if (proc.restartTimer) clearTimeout(proc.restartTimer);
    for (const { child, sink } of [...procs].reverse()) {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
        await exited;
        clearTimeout(timer);
      }
      if (sink !== undefined) closeSync(sink);
    }
  };

  try {
    // One instance's services at a time: a dozen processes compiling their sources at once on a
    // small machine took more than the start timeout; the second set reuses tsx's compile cache.
    for (const k of instanceIndexes) await Promise.all(services.map((name) => launch(name, k)));
    await Promise.all(instanceIndexes.map((k) => launch('gateway', k)));
  } catch (err) {
    await stop();
    throw new Error(`${err.message}${logDir ? ` (logs in ${logDir})` : ''}`);
  }
  const urls = ports.instances.map((instance) => `http://127.0.0.1:${instance.gateway}`);
  log(`[stack] ${urls.length === 1 ? 'gateway' : `${urls.length} gateways`} on ${urls.join(', ')}`);
  return { ports, url: urls[0], urls, stop, processes: procs };
}
