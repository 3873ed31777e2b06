// Helpers the benchmark scripts share: starting the servers and the stack, an admin's session, a
// timed HTTP call, percentiles, a bounded worker pool, a process's CPU time.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One HTTP call with an optional JSON body and bearer token, timed from the call to the last byte
 * of the answer. Resolves with the status, milliseconds, headers and the body as JSON on demand.
 */
export function timedRequest(base, method, path, { body, token, headers = {}, agent, localAddress } = {}) {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        agent,
        localAddress,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode, ms, headers: res.headers, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

let loopbackSeq = 0;
/** The next loopback address, 127.50.0.1 onwards: one per call keeps per-address limits out of the figures. */
export function nextLoopbackAddress() {
  loopbackSeq += 1;
  return `127.${50 + ((loopbackSeq >> 16) & 0x3f)}.${(loopbackSeq >> 8) & 0xff}.${loopbackSeq & 0xff || 1}`;
}

const noKeepAlive = new http.Agent({ keepAlive: false });

/** timedRequest from a new connection and, unless `localAddress` is given, a new loopback address. */
export const requestFromNewAddress = (base, method, path, { localAddress = nextLoopbackAddress(), ...options } = {}) =>
  timedRequest(base, method, path, { ...options, localAddress, agent: noKeepAlive });

/**
 * One API call for seeding, answered as `{ status, body }` (the body parsed, null for a 204); a
 * 503 (a service slow to answer on a busy machine) is asked again after its Retry-After, ten tries at most.
 */
export async function call(base, method, path, options) {
  for (let attempt = 1; ; attempt += 1) {
    const res = await timedRequest(base, method, path, options);
    if (res.status !== 503 || attempt === 10)
      return { status: res.status, body: res.status === 204 ? null : res.json() };
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers['retry-after'] ?? 1)));
  }
}

/**
 * A verified user as the auth service stores one (argon2 `passwordHash`, an empty outbox), for
 * seeding the users collection directly instead of signing up through the API.
 */
export const benchUser = (email, passwordHash) => ({
  email,
  passwordHash,
  role: 'user',
  emailVerified: true,
  plan: 'free',
  created_at: new Date(),
  rev: 0,
  outbox: [],
});

/** The p-th percentile (nearest rank) of `values`. */
export const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

export { pool } from '../test/support/pool.mjs';

/**
 * Waits until a process has settled after a bulk load (the database's JVM compacting its store
 * and collecting garbage after seeding), so read timings measure the steady state and not that:
 * returns once it used under `idlePercent` of one core for a whole second, or after `maxMs`.
 * Returns how long it waited.
 */
export async function waitUntilIdle(pid, { idlePercent = 10, maxMs = 30_000 } = {}) {
  const started = Date.now();
  let last = cpuSeconds(pid);
  while (Date.now() - started < maxMs) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuSeconds(pid);
    if ((now - last) * 100 < idlePercent) break;
    last = now;
  }
  return Date.now() - started;
}

/** CPU seconds a process has used so far (user + system), from /proc. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Starts the real servers and the whole stack on test ports (TEST_PORT_OFFSET, which each script
 * sets from BENCH_PORT_OFFSET before calling), with data in a fresh temporary folder. `settings`
 * are laid over the servers' addresses, fresh secrets and LOG_LEVEL=warn; `processSettings.<name>` are one
 * process's own (stack.mjs); `runtime` is stack.mjs's (`compiled` runs dist/ as production does,
 * built first where stale; `source` runs the sources through tsx). Resolves with the
 * gateway's URL, the settings the stack runs with, the servers and the stack themselves (for
 * pids and ports), and `stop`, which stops both and removes the data unless KEEP_BENCH_DATA.
 */
export async function startBenchStack({ name, log, settings = {}, processSettings = {}, runtime = 'source' }) {
  if (!['compiled', 'source'].includes(runtime)) throw new Error(`runtime is compiled or source, not ${runtime}`);
  if (runtime === 'compiled') await buildIfStale(log);
  const { provision, startInfra } = await import('../infra/local/servers.mjs');
  const { startStack } = await import('../infra/local/stack.mjs');
  const dataDir = mkdtempSync(join(tmpdir(), `homereport-bench-${name}-`));
  provision();
  log(`starting servers and the stack (data in ${dataDir})`);
  const infra = await startInfra({ profile: 'test', dataDir, log });
  const all = {
    ...infra.settings,
    INTERNAL_SECRET: randomBytes(24).toString('hex'),
    EVENT_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ...settings,
  };
  let stack;
  const stop = async () => {
    await stack?.stop();
    await infra.stop();
    if (!process.env.KEEP_BENCH_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    stack = await startStack({
      profile: 'test',
      logDir: join(dataDir, 'logs'),
      pretty: false,
      log,
      settings: all,
      processSettings,
      runtime,
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { base: stack.url, settings: all, infra, stack, dataDir, stop };
}

/**
 * Makes an admin as an operator's script makes one (the email as argument, the password on
 * standard input: create-admin refuses a password on the command line, where `ps` shows it),
 * signs in as that admin through the gateway and resolves with the session token.
 */
export async function signInNewAdmin({ base, settings }) {
  const { repoRoot } = await import('../infra/local/servers.mjs');
  const email = `bench-admin-${randomUUID().slice(0, 8)}@example.com`;
  const password = randomBytes(12).toString('hex');
  execFileSync(process.execPath, ['--import', 'tsx', 'services/auth/src/cli/create-admin.ts', email], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, MONGO_URL: settings.MONGO_URL, REDIS_URL: settings.REDIS_URL },
    input: `${password}\n`,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const signIn = await timedRequest(base, 'POST', '/api/auth/admin-login', { body: { email, password } });
  if (signIn.status !== 200) throw new Error(`admin sign-in answered ${signIn.status}`);
  return signIn.json().token;
}

/** The workspaces the stack runs compiled, in build order (the packages before their users). */
const SERVER_WORKSPACES = [
  'packages/contracts',
  'packages/kit',
  'gateway',
  ...['auth', 'requests', 'files', 'zipcodes', 'leads', 'notifications'].map((s) => `services/${s}`),
];

/** What a workspace's build is made from: its src/, and the web app's public files and page too. */
const SOURCES = { web: ['src', 'public', 'index.html'] };

/** Newest (or oldest) modification time of a file or of the files under a folder, tests left out; 0 for none. */
function mtimeOf(path, pick) {
  if (!existsSync(path)) return 0;
  if (statSync(path).isFile()) return statSync(path).mtimeMs;
  let found = null;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.endsWith('.test.ts')) {
      const t = statSync(join(entry.parentPath, entry.name)).mtimeMs;
      found = found === null ? t : pick(found, t);
    }
  }
  return found ?? 0;
}

/**
 * Builds (`npm run build -w`) each workspace (by default the servers') whose dist/ is missing or
 * older than its sources, so a benchmark measures the code in the tree, not an old build.
 */
export async function buildIfStale(log, workspaces = SERVER_WORKSPACES) {
  const { repoRoot } = await import('../infra/local/servers.mjs');
  for (const ws of workspaces) {
    const dist = join(repoRoot, ws, 'dist');
    const sources = Math.max(...(SOURCES[ws] ?? ['src']).map((part) => mtimeOf(join(repoRoot, ws, part), Math.max)));
    if (existsSync(dist) && mtimeOf(dist, Math.min) >= sources) continue;
    log(`building ${ws} (its dist/ is missing or older than its sources)`);
    execFileSync('npm', ['run', 'build', '-w', ws], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  }
}
