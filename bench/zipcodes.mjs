// `npm run bench:zip`: does the cached ZIP list keep up? Starts its own MongoDB-protocol server and
// Redis, the zipcodes service and the gateway on their own ports (BENCH_PORT_OFFSET, default 800),
// imports 5,000 generated analyses with `zip:import`, then loads each target with autocannon in
// turn, in one run on one machine:
//   - a Fastify hello-world (the yardstick the issue names),
//   - GET /api/zipcodes through the gateway, as a browser asks (brotli), gzip only and uncompressed:
//     the whole list, which clients calling without parameters still get,
//   - GET /api/zipcodes?limit=24 and ?q=...&limit=24 through the gateway: the first page of /zip and a
//     typed search, what the web page asks for (filtered and paged in the service's memory),
//   - diagnostics: the gateway without its rate limiter, the service directly, a bare Fastify server
//     sending the same brotli bytes (what the payload alone costs), a gateway path with no database,
//   - GET /api/zipcodes/:zipCode through the gateway, a random ZIP code per request.
// It prints requests per second, p99 latency and bytes per response, and each row's share of the
// hello-world's throughput (goal for what /zip requests: at least 0.5). Figures, not a pass/fail test:
// the machine is shared.
// Settings: BENCH_COUNT (5000), BENCH_SECONDS (10), BENCH_CONNECTIONS (32).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '800';
const { infraPorts, infraUrls, mongo, provision, redis, repoRoot, waitForPort } = await import(
  '../infra/local/servers.mjs'
);
const { runMigrations, stackPorts } = await import('../infra/local/stack.mjs');
const { bulkPlaces, generateAnalysis } = await import('../services/zipcodes/tools/generator.ts');

const COUNT = Number(process.env.BENCH_COUNT ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const log = (m) => console.log(`[bench] ${m}`);

const dataDir = mkdtempSync(join(tmpdir(), 'homereport-bench-zip-'));
const children = [];
const servers = [];

function launch(name, args, env, { logToFile = false } = {}) {
  // Servers write their log lines to a file themselves, as in production, not through this process
  // (which is also the load generator).
  const stdout = logToFile ? openSync(join(dataDir, `${name}.log`), 'a') : 'pipe';
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
  child.out = '';
  child.stdout?.on('data', (d) => {
    child.out += d;
  });
  let errors = '';
  child.stderr.on('data', (d) => {
    errors += d;
  });
  child.on('exit', (code) => {
    if (code && !child.stopping) console.error(`[bench] ${name} exited with ${code}\n${errors.slice(-2000)}`);
  });
  children.push(child);
  return child;
}

async function cleanUp() {
  for (const child of children.reverse()) {
    if (child.exitCode !== null) continue;
    child.stopping = true;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  for (const server of servers.reverse()) await server.stop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}

function load(url, options = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, ...options }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function timed(what, fn) {
  const started = Date.now();
  const value = await fn();
  log(`${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return value;
}

try {
  provision();
  const ports = infraPorts('test');
  const urls = infraUrls(ports);
  for (const server of [mongo(ports, dataDir), redis(ports, dataDir, { persist: false })]) {
    servers.push(server);
    await server.start();
  }
  const { services, gateway } = stackPorts('test');
  const helloPort = gateway + 1;
  const sameBytesPort = gateway + 2;
  const secret = randomBytes(24).toString('hex');
  const common = { MONGO_URL: urls.MONGO_URL, REDIS_URL: urls.REDIS_URL, INTERNAL_SECRET: secret, LOG_LEVEL: 'info' };

  // Its database's indexes first, as every start of a release (decision 028).
  await runMigrations('source', { ...process.env, ...common }, ['zipcodes'], (m) => console.log(m));
  const zipService = launch(
    'zipcodes',
    ['--import', 'tsx', 'services/zipcodes/src/server.ts'],
    {
      ...common,
      PORT: String(services.zipcodes),
      ZIP_LOAD_SAMPLE_WHEN_EMPTY: 'false',
    },
    { logToFile: true },
  );
  await waitForPort(services.zipcodes, { name: 'zipcodes', proc: zipService, timeoutMs: 120_000 });
  const gw = launch(
    'gateway',
    ['--import', 'tsx', 'gateway/src/server.ts'],
    {
      ...common,
      PORT: String(gateway),
      ZIPCODES_URL: `http://127.0.0.1:${services.zipcodes}`,
      // The limiter still counts every request; the limit is only set out of reach.
      RATE_LIMIT_PER_MINUTE: '1000000000',
    },
    { logToFile: true },
  );
  await waitForPort(gateway, { name: 'gateway', proc: gw, timeoutMs: 60_000 });
  // Diagnostic: the same gateway with its rate limiter switched off.
  const gwNoLimit = launch(
    'gateway-no-limit',
    ['--import', 'tsx', 'gateway/src/server.ts'],
    {
      ...common,
      PORT: String(gateway + 3),
      ZIPCODES_URL: `http://127.0.0.1:${services.zipcodes}`,
      RATE_LIMIT_PER_MINUTE: '0',
      // The measured gateway serves metrics on the gateway's metrics port, as in production.
      METRICS_PORT: '0',
    },
    { logToFile: true },
  );
  await waitForPort(gateway + 3, { name: 'gateway-no-limit', proc: gwNoLimit, timeoutMs: 60_000 });
  const hello = launch('hello-world', [
    '--input-type=module',
    '-e',
    `import Fastify from 'fastify';
     const app = Fastify();
     app.get('/', async () => ({ hello: 'world' }));
     await app.listen({ port: ${helloPort}, host: '127.0.0.1' });`,
  ]);
  await waitForPort(helloPort, { name: 'hello-world', proc: hello });

  // 5,000 analyses of real ZIP codes, in files of 1,000, through the operator's command.
  const zipcodes = createRequire(import.meta.url)('zipcodes');
  const places = bulkPlaces(
    COUNT,
    Object.values(zipcodes.codes).filter((z) => z.country === 'US'),
  );
  const folder = join(dataDir, 'import');
  mkdirSync(folder);
  const analyses = places.map((p) => generateAnalysis(p));
  for (let i = 0; i < analyses.length; i += 1000) {
    writeFileSync(
      join(folder, `batch-${String(i / 1000).padStart(2, '0')}.json`),
      JSON.stringify(analyses.slice(i, i + 1000)),
    );
  }
  const importer = await timed(
    `import of ${analyses.length} analyses with npm run zip:import`,
    () =>
      new Promise((resolve) => {
        const child = launch('zip:import', ['--import', 'tsx', 'services/zipcodes/src/cli/import.ts', folder], common);
        child.on('exit', (code) => resolve({ code, out: child.out }));
      }),
  );
  if (importer.code !== 0) throw new Error(`zip:import exited with ${importer.code}: ${importer.out.slice(-2000)}`);
  log(importer.out.split('\n')[0].replace(/:.*/, '.'));

  const listUrl = `http://127.0.0.1:${gateway}/api/zipcodes`;
  const first = await timed('first list request after the import (rebuilds the cache from the database)', () =>
    fetch(listUrl, { headers: { 'accept-encoding': 'identity' } }).then((r) => r.json()),
  );
  if (first.zipCodes.length !== analyses.length) throw new Error(`list has ${first.zipCodes.length} items`);
  const plain = Buffer.from(JSON.stringify(first));
  const zipped = gzipSync(plain);
  const brotli = brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
  log(
    `list body: ${(plain.length / 1e6).toFixed(2)} MB, ${(zipped.length / 1e3).toFixed(0)} kB gzip, ${(brotli.length / 1e3).toFixed(0)} kB brotli`,
  );

  const same = launch('same-bytes', [
    '--input-type=module',
    '-e',
    `import Fastify from 'fastify';
     import { readFileSync } from 'node:fs';
     const body = readFileSync(${JSON.stringify(join(dataDir, 'list.json.br'))});
     const app = Fastify();
     app.get('/', (req, reply) => reply.type('application/json').header('content-encoding', 'br').send(body));
     await app.listen({ port: ${sameBytesPort}, host: '127.0.0.1' });`,
  ]);
  writeFileSync(join(dataDir, 'list.json.br'), brotli);
  await waitForPort(sameBytesPort, { name: 'same-bytes', proc: same });

  // What /zip asks for: its first page, and a search as typed (a place name many ZIP codes share).
  const firstPageUrl = `${listUrl}?limit=24`;
  const SEARCH = process.env.BENCH_SEARCH ?? 'spring';
  const searchUrl = `${listUrl}?q=${encodeURIComponent(SEARCH)}&limit=24`;
  for (const url of [firstPageUrl, searchUrl]) {
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    const page = await res.json();
    if (res.status !== 200 || page.zipCodes.length === 0)
      throw new Error(`${url}: ${res.status} ${JSON.stringify(page).slice(0, 300)}`);
    log(
      `${new URL(url).pathname}${new URL(url).search}: ${page.zipCodes.length} of ${page.showing} matches, ${res.headers.get('content-length') ?? '?'} bytes`,
    );
  }

  const zips = analyses.map((a) => a.zipCode);
  const rows = [];
  const run = async (name, url, options) => {
    log(`loading ${name} for ${SECONDS} s with ${CONNECTIONS} connections...`);
    const r = await load(url, options);
    const non2xx = r.non2xx + r.errors + r.timeouts;
    rows.push({
      name,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      bytes: r.requests.total ? r.throughput.total / r.requests.total : 0,
      failed: non2xx,
    });
  };

  const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  await run('Fastify hello-world (direct)', `http://127.0.0.1:${helloPort}/`);
  await run('GET /api/zipcodes via gateway, as a browser asks (brotli)', listUrl, { headers: browser });
  await run('GET /api/zipcodes via gateway, gzip only', listUrl, { headers: { 'accept-encoding': 'gzip' } });
  await run('GET /api/zipcodes via gateway, uncompressed', listUrl, { headers: { 'accept-encoding': 'identity' } });
  await run('GET /api/zipcodes?limit=24 via gateway (first page of /zip)', firstPageUrl, { headers: browser });
  await run(`GET /api/zipcodes?q=${SEARCH}&limit=24 via gateway (typed search)`, searchUrl, { headers: browser });
  // Diagnostics: where the time goes.
  await run('  same, gateway without its rate limiter (brotli)', `http://127.0.0.1:${gateway + 3}/api/zipcodes`, {
    headers: browser,
  });
  await run('  same, straight to the service (brotli)', `http://127.0.0.1:${services.zipcodes}/api/zipcodes`, {
    headers: { ...browser, 'x-internal-secret': secret },
  });
  await run('  bare Fastify sending the same brotli bytes', `http://127.0.0.1:${sameBytesPort}/`);
  await run(
    `  ?q=${SEARCH}&limit=24 straight to the service`,
    `http://127.0.0.1:${services.zipcodes}/api/zipcodes?q=${encodeURIComponent(SEARCH)}&limit=24`,
    { headers: { ...browser, 'x-internal-secret': secret } },
  );
  await run('  GET /api/zipcodes/abc via gateway (400, no database)', `http://127.0.0.1:${gateway}/api/zipcodes/abc`);
  // Every ZIP code once in the first seconds (cache misses), then mostly cache hits.
  await run('GET /api/zipcodes/:zip via gateway, random ZIP', `http://127.0.0.1:${gateway}/api/zipcodes/00000`, {
    requests: [
      {
        setupRequest: (req) => ({ ...req, path: `/api/zipcodes/${zips[Math.floor(Math.random() * zips.length)]}` }),
      },
    ],
  });

  const helloRps = rows[0].rps;
  console.log(
    `\nZIP code list and detail, ${analyses.length} analyses stored; ${CONNECTIONS} connections, ${SECONDS} s each, one machine\n`,
  );
  const sameBytesRps = rows.find((r) => r.name.includes('same brotli bytes'))?.rps ?? 0;
  console.log(
    '| Target | req/s | p50 ms | p99 ms | bytes/resp | share of hello-world | share of same-bytes | failed |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const vsBytes = r.name.includes('(brotli)') && sameBytesRps ? (r.rps / sameBytesRps).toFixed(2) : '';
    console.log(
      `| ${r.name} | ${Math.round(r.rps).toLocaleString('en-US')} | ${r.p50} | ${r.p99} | ${Math.round(r.bytes).toLocaleString('en-US')} | ${(r.rps / helloRps).toFixed(2)} | ${vsBytes} | ${r.failed} |`,
    );
  }
  console.log('');
} catch (err) {
  console.error(`[bench] failed: ${err instanceof Error ? err.stack : err}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
