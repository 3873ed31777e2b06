// `node --import tsx bench/gateway-parts.mjs`: what each edge mechanism of the gateway costs per
// request, measured on the kit's app (the gateway's hooks) answering a fixed 3 kB JSON, as a kept
// public answer is, with and without each part: the request budget (@fastify/rate-limit with the
// kit's SharedCounts store, or with the plugin's own Redis store: a script call per request) and
// the security headers (the kit's fixed lists, or @fastify/helmet). Each variant is its own
// process, loaded in turns with autocannon; CPU ms per request is the figure the machine's other
// load moves least (decision 030). Starts its own redis-server.
// Settings: BENCH_SECONDS (3 per turn), BENCH_ROUNDS (3), BENCH_CONNECTIONS (16), BENCH_PORT (33580).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { load, meanOf } from './compare.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const BASE_PORT = Number(process.env.BENCH_PORT ?? 33580);
const REDIS_PORT = BASE_PORT - 1;

const VARIANTS = {
  'fixed headers, no budget': { headers: 'fixed', budget: 'none' },
  'fixed headers, budget (SharedCounts)': { headers: 'fixed', budget: 'shared' },
  'fixed headers, budget (plugin Redis store)': { headers: 'fixed', budget: 'redis' },
  '@fastify/helmet, budget (SharedCounts)': { headers: 'helmet', budget: 'shared' },
};

/** The gateway's API list (security-headers.ts) as @fastify/helmet options. */
const API_HELMET = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' },
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

if (process.argv[2] === 'serve') {
  await serve(VARIANTS[process.argv[3]], Number(process.argv[4]));
} else {
  await compare();
}

async function serve(variant, port) {
  const kit = await import('../packages/kit/src/index.ts');
  const { securityHeadersFor } = await import('../gateway/src/security-headers.ts');
  const { Redis } = await import('ioredis');
  const redis = new Redis({ port: REDIS_PORT });
  const app = await kit.createServiceApp({
    name: 'parts',
    logger: kit.createLogger({ name: 'parts', level: 'silent', format: 'json' }),
    workContext: false,
    ...(variant.headers === 'fixed' ? { answerHeaders: securityHeadersFor } : {}),
  });
  if (variant.headers === 'helmet') await app.register((await import('@fastify/helmet')).default, API_HELMET);
  const body = JSON.stringify({ properties: Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, city: 'Austin' })) });
  await app.register(async (scope) => {
    const budget = { max: 1e9, windowSeconds: 60, message: 'Too many requests.' };
    if (variant.budget === 'shared') await scope.register(kit.requestBudget, { redis, prefix: 'parts:', ...budget });
    if (variant.budget === 'redis') {
      const off = { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false };
      await scope.register((await import('@fastify/rate-limit')).default, {
        global: true,
        redis,
        nameSpace: 'parts-redis:',
        max: 1e9,
        timeWindow: 60_000,
        skipOnError: true,
        addHeaders: { ...off, 'retry-after': false },
        addHeadersOnExceeding: off,
      });
    }
    scope.get('/api/requests/covered', async (_req, reply) => reply.type('application/json').send(body));
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.send?.('ready');
}

async function compare() {
  const redis = spawn('redis-server', ['--port', String(REDIS_PORT), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await sleep(500);
  const servers = [];
  try {
    const names = Object.keys(VARIANTS);
    for (const [i, name] of names.entries()) {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'bench/gateway-parts.mjs', 'serve', name, String(BASE_PORT + i)],
        {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        },
      );
      await once(child, 'message');
      servers.push({ name, child, url: `http://127.0.0.1:${BASE_PORT + i}/api/requests/covered` });
    }
    const turns = new Map(names.map((n) => [n, []]));
    for (const s of servers) await load(s.url, CONNECTIONS, { duration: 1 }); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of servers) {
        turns.get(s.name).push(await load(s.url, CONNECTIONS, { duration: SECONDS, pid: s.child.pid }));
      }
    }
    const base = meanOf(turns.get(names[0]));
    console.log('\n| variant | req/s | p50 / p99 ms | CPU ms per request | CPU vs first row |');
    console.log('|---|---|---|---|---|');
    for (const name of names) {
      const m = meanOf(turns.get(name));
      const ratio = ((m.cpuMs / base.cpuMs - 1) * 100).toFixed(0);
      console.log(
        `| ${name} | ${m.rps.toFixed(0)} | ${m.p50.toFixed(1)} / ${m.p99.toFixed(1)} | ${m.cpuMs.toFixed(3)} | ${ratio}% |`,
      );
    }
    const loadAverage = (await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `\n${SECONDS} s per turn, ${ROUNDS} turns each, ${CONNECTIONS} connections; load average ${loadAverage}`,
    );
  } finally {
    for (const s of servers) s.child.kill();
    redis.kill();
  }
}
