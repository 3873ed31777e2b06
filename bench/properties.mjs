// `npm run bench:properties`: does the public search of covered properties stay flat as they grow,
// and does it leave the requests process's memory where it was? Starts the real servers and the
// whole stack on their own ports (BENCH_PORT_OFFSET, default 1600), seeds 1k and then 100k
// requests over 60% as many properties (two spellings of an address share one; every other
// request covered), and prints for each size:
//   - the first page of GET /api/requests/covered?q=... through the gateway, 100 different
//     searches (a street name, or a street and a city) each asked BENCH_ROUNDS times, 8 at a time:
//     p50 / p99;
//   - 20 of them with sort=city, once (ordered by the database, decision 017);
//   - the requests process's RSS when idle and after the searches.
// Goals (issue 36): search p99 at 100k within 1.5x of 1k; RSS after the 100 searches at most
// 32 MB above idle. Figures, not a pass/fail test: the machine is shared.
// Settings: BENCH_SIZES (1000,100000), BENCH_ROUNDS (5).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { MongoClient } from 'mongodb';
import { propertyKey } from '../services/requests/src/domain/property-key.ts';
import { prefixTerms } from '../services/requests/src/domain/search-terms.ts';
import { seedRequests } from './seed-requests.mjs';
import { pct, pool, startBenchStack, timedRequest, waitUntilIdle } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '1600';

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const log = (m) => console.log(`[bench] ${m}`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

const STREETS = Array.from(
  { length: 100 },
  (_, i) => `Bench${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`,
);
const CITIES = [
  'Austin',
  'Denver',
  'Boise',
  'Salem',
  'Tulsa',
  'Reno',
  'Mesa',
  'Miami',
  'Helena',
  'Madison',
  'Columbus',
  'Portland',
  'Seattle',
  'Albany',
  'Boston',
  'Chicago',
  'Dallas',
  'Houston',
  'Phoenix',
  'Omaha',
];
const SUFFIXES = ['Street', 'Avenue', 'Road', 'Lane'];

/** Request i belongs to property floor(0.6 i): 100,000 requests, 60,000 properties. */
const propertyOf = (i) => Math.floor(i * 0.6);
/** The property's address; its second request spells it in capitals with the suffix abbreviated. */
function addressOf(i, k) {
  const address = `${k + 1} ${STREETS[k % STREETS.length]} ${SUFFIXES[k % 4]}, ${CITIES[k % CITIES.length]}, TX 7${String(k % 10000).padStart(4, '0')}`;
  return i > 0 && propertyOf(i - 1) === k
    ? address.toUpperCase().replace(/ (STREET|AVENUE|ROAD|LANE),/, ' ST,')
    : address;
}

/** 100 different searches: a street name alone, or a street and a city. */
const SEARCHES = STREETS.map((street, j) =>
  j % 2 === 0 ? street.toLowerCase() : `${street.toLowerCase()} ${CITIES[j % CITIES.length]?.toLowerCase()}`,
);

const WARM_UP = CITIES.map((city) => city.toLowerCase());

const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

async function searchAll(gateway, extra, searches = SEARCHES, rounds = ROUNDS) {
  const jobs = [];
  for (let round = 0; round < rounds; round++) {
    for (const q of searches) jobs.push(`/api/requests/covered?q=${encodeURIComponent(q)}${extra}`);
  }
  const results = await pool(jobs.length, 8, (i) => timedRequest(gateway, 'GET', jobs[i], { agent }));
  const bad = results.filter((r) => r.status !== 200).length;
  return {
    ms: results.map((r) => r.ms),
    bad,
    found: results.filter((r) => r.status === 200 && r.json().properties.length > 0).length,
  };
}

const bench = await startBenchStack({
  name: 'properties',
  log,
  settings: { RATE_LIMIT_PER_MINUTE: '100000000', ANON_REQUESTS_PER_HOUR: '100000' },
});
let mongo;
try {
  mongo = await MongoClient.connect(bench.infra.settings.MONGO_URL);
  const db = mongo.db('homereport_requests');
  const requests = bench.stack.processes.find((p) => p.name === 'requests');
  if (!requests) throw new Error('no requests process in the stack');
  const pid = requests.child.pid;
  const rows = [];
  for (const size of SIZES) {
    const t0 = Date.now();
    await seedRequests(db, size, { propertyOf, addressOf, keyOf: propertyKey, termsOf: prefixTerms });
    const properties = await db.collection('properties').estimatedDocumentCount();
    log(`seeded ${size} requests over ${properties} properties in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    // Warm-up with searches of their own (cities alone), so the figures are of a process that has
    // compiled its search path; then idle, then the 100 searches.
    await searchAll(bench.stack.url, '', WARM_UP, 1);
    await waitUntilIdle(pid);
    const idle = rssMb(pid);
    const newest = await searchAll(bench.stack.url, '');
    const after = rssMb(pid);
    // Ordered by city: a scan on the embedded server (decision 017), so 20 searches once.
    const byCity = await searchAll(bench.stack.url, '&sort=city', SEARCHES.slice(0, 20), 1);
    // New addresses: each claims a new property by its key (an upsert on the unique key index).
    const submits = [];
    for (let n = 0; n < 20; n++) {
      const address = `${size + n} Claim${n} Street, Austin, TX 78701`;
      submits.push(await timedRequest(bench.stack.url, 'POST', '/api/requests', { body: { address }, agent }));
    }
    rows.push({
      size,
      properties,
      p50: pct(newest.ms, 50),
      p99: pct(newest.ms, 99),
      cityP50: pct(byCity.ms, 50),
      cityP99: pct(byCity.ms, 99),
      bad: newest.bad + byCity.bad + submits.filter((r) => r.status !== 201).length,
      submitP50: pct(
        submits.map((r) => r.ms),
        50,
      ),
      submitP99: pct(
        submits.map((r) => r.ms),
        99,
      ),
      found: newest.found,
      calls: newest.ms.length,
      idle,
      after,
      afterCity: rssMb(pid),
    });
  }
  const f = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');
  console.log(
    `\n| requests / properties | search p50 / p99 ms (${rows[0]?.calls} calls, 100 different) | sort=city p50 / p99 ms (20 calls) | requests RSS idle → after searches (→ after city) MB | new request p50 / p99 ms (20) | non-2xx |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.size} / ${r.properties} | ${f(r.p50)} / ${f(r.p99)} (${r.found} with results) | ${f(r.cityP50)} / ${f(r.cityP99)} | ${f(r.idle)} → ${f(r.after)} (+${f(r.after - r.idle)}) → ${f(r.afterCity)} | ${f(r.submitP50)} / ${f(r.submitP99)} | ${r.bad} |`,
    );
  }
  if (rows.length >= 2) {
    const [small, big] = [rows[0], rows[rows.length - 1]];
    console.log(
      `\nsearch p99 ${big.size} vs ${small.size}: ${f(big.p99 / small.p99, 2)}x (goal <= 1.5x); sort=city ${f(big.cityP99 / small.cityP99, 2)}x; RSS after 100 searches at ${big.size}: +${f(big.after - big.idle)} MB over idle (goal <= 32)`,
    );
  }
} finally {
  await mongo?.close().catch(() => {});
  await bench.stop();
}
