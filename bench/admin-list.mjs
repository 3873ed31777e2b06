// `npm run bench:admin-list`: do the admin's full request list, its search, status filter and
// paging hold at 100k requests (issue 19: p99 at 100k within 1.5x of 1k)? Starts the real servers
// and the whole stack on their own ports (BENCH_PORT_OFFSET, default 1300), signs in an admin made
// as an operator makes one, seeds the requests database directly in the service's own shapes
// (requests, the search posting lists, the sequence counters), first 1k and then grown to 100k,
// and for each size measures through the gateway, once the database has settled after the load:
//   - GET /api/admin/requests: the first page; page 3 (following next_cursor); ?status=requested;
//     ?q=<a common city>; ?q=<a rare street word>&status=covered; ?q=<city>&status=in_progress,
//     first and second page;
//   - GET /api/admin/recent-requests beside them: the newest 20 by key, the least a list of
//     requests can cost through the same gateway, session check and service.
// Each sample calls every case once in turn (BENCH_CONCURRENCY samples at a time, each call from
// its own loopback address), so the machine's swings hit all cases alike. Prints p50 / p99 per
// case and size, and the p99 ratio. Figures, not a pass/fail test: compare within one run.
// Settings: BENCH_SIZES (1000,100000), BENCH_SAMPLES (500), BENCH_CONCURRENCY (4).
import os from 'node:os';
import { MongoClient, ObjectId } from 'mongodb';
import { pct, pool, requestFromNewAddress, signInNewAdmin, startBenchStack, waitUntilIdle } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '1300';
// The service's own rules: the terms a request is found by, the posting ranges, the address key.
const { addressTerms, statusTerm } = await import('../services/requests/src/domain/search-terms.ts');
const { POSTING_RANGE } = await import('../services/requests/src/data/search-postings.ts');
const { addressKey, cleanAddress } = await import('../services/requests/src/domain/address.ts');
const { collections } = await import('../services/requests/src/data/collections.ts');
const { SearchPostings } = await import('../services/requests/src/data/search-postings.ts');
const { RequestsRepository } = await import('../services/requests/src/data/requests-repository.ts');
const { Requests } = await import('../services/requests/src/domain/requests.ts');

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const WARM_UP = 50;
const BATCH = 5000;
const log = (m) => console.log(`[bench] ${m}`);

// Every call from its own loopback address: per-address limits stay out of the figures.
const request = requestFromNewAddress;

// ---- realistic addresses ------------------------------------------------------------------------

/** A seeded PRNG (mulberry32): every run seeds the same data, so runs compare. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks from `items` by `weights` (cumulative table, binary search). */
function weighted(items, weights) {
  const cumulative = [];
  let sum = 0;
  for (const w of weights) {
    sum += w;
    cumulative.push(sum);
  }
  return (r) => {
    const x = r * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo];
  };
}

const STATES =
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(
    ' ',
  );
const CITY_STEMS =
  'Spring Oak River Fair Maple Cedar Green Lake Mill Brook Clear Pine Red Stone Ash Elm Glen Rock Silver West'.split(
    ' ',
  );
const CITY_ENDS = 'field ville ton view wood dale port ford burg haven'.split(' ');
/** 200 cities over the 50 states, a few with a two-word name; bigger cities get more requests. */
const CITIES = CITY_STEMS.flatMap((stem, s) =>
  CITY_ENDS.map((end, e) => {
    const i = s * CITY_ENDS.length + e;
    const name = `${i % 9 === 5 ? 'North ' : i % 9 === 7 ? 'New ' : ''}${stem}${end}`;
    return { name, state: STATES[i % STATES.length], zip: 10000 + ((i * 437) % 89000) };
  }),
);
// 1/sqrt(rank): the largest city holds about 3.7% of the requests, the smallest about 0.26%.
const pickCity = weighted(
  CITIES,
  CITIES.map((_, i) => 1 / Math.sqrt(i + 1)),
);
// Street names, two-word ones too, most common first.
const STREETS = `Main, Oak, Maple, Cedar, Elm, Pine, Washington, Lake, Hill, Park, Walnut, Sunset, Lincoln, Jackson,
Church, Highland, Meadow, Forest, Willow, Cherry, Dogwood, Hickory, Chestnut, Birch, Magnolia,
Sycamore, Laurel, Jefferson, Franklin, Madison, Adams, Center, School, North, South, Ridge, Valley,
Prospect, Academy, Bridge, Broad, Canal, Depot, Elizabeth, Grove, Harbor, Heritage, Holly, Juniper,
Kingston, Liberty, Locust, Mulberry, Orchard, Poplar, Quarry, Railroad, Rosewood, Sawmill, Spruce,
Summit, Thornton, Union, Vine, Wharf, Whitney, Wildwood, Woodland, York, Quail Hollow, Old Mill,
Fox Run, Deer Creek, Martin Luther King, Zephyr`.split(/,\s*/);
/** The rarest street (Zipf weights, last place): about 0.3% of the requests. */
const RARE_STREET_WORD = 'zephyr';
const pickStreet = weighted(
  STREETS,
  STREETS.map((_, i) => 1 / (i + 1)),
);
const pickSuffix = weighted(['St', 'Ave', 'Rd'], [5, 3, 2]);
/** The biggest city: a common word of the search box. */
const COMMON_CITY_WORD = CITIES[0].name.toLowerCase();

// ---- seeding in the service's shapes -------------------------------------------------------------

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const STAFF = { userId: 'bench-staff', email: 'staff@homereport.example' };

/**
 * One request as the requests service leaves it after its life so far (created by
 * RequestsRepository.insert, moved by changeStatus, given files by setFiles), and the search
 * terms SearchPostings.add gave it along the way: the address words and every status it ever
 * held (the status lists keep a request once it was in a status).
 */
function seededRequest(seq, random, t0, coveredCounter) {
  const city = pickCity(random());
  const street = pickStreet(random());
  const zip = city.zip + Math.floor(random() * 4);
  const address = cleanAddress(
    `${1 + Math.floor(random() * 9999)} ${street} ${pickSuffix(random())}, ${city.name}, ${city.state} ${zip}`,
  );
  const created = new Date(t0 + seq * 15 * MINUTE);
  const roll = random();
  // 70% covered, 10% in progress, 20% requested; most covered ones went through in progress.
  const status = roll < 0.7 ? 'covered' : roll < 0.8 ? 'in_progress' : 'requested';
  const viaProgress = status === 'in_progress' || (status === 'covered' && random() < 0.8);
  const history = [];
  let at = created;
  let from = 'requested';
  if (viaProgress) {
    at = new Date(at.getTime() + (1 + random() * 4) * DAY);
    history.push({ from, to: 'in_progress', by: STAFF, at });
    from = 'in_progress';
  }
  const id = new ObjectId().toHexString();
  const doc = {
    _id: id,
    seq,
    address,
    addressKey: addressKey(address),
    url: random() < 0.5 ? `https://listing.example/${seq}` : null,
    notes: random() < 0.2 ? 'Seeded for the admin list benchmark.' : null,
    status,
    created_at: created,
    updated_at: at,
    completed_at: null,
    requester: random() < 0.6 ? { userId: `seed-user-${seq % 5000}`, email: `seed-${seq % 5000}@example.com` } : null,
    files: {},
    status_history: history,
    pending: [],
    outbox: [],
  };
  if (status === 'covered') {
    const uploaded = new Date(at.getTime() + (1 + random() * 9) * DAY);
    const coveredAt = new Date(uploaded.getTime() + 10 * MINUTE);
    doc.files = {
      report: {
        key: `${id}/report-seeded`,
        name: 'report.pdf',
        contentType: 'application/pdf',
        size: 1,
        uploaded_at: uploaded,
      },
    };
    history.push({ from, to: 'covered', by: STAFF, at: coveredAt });
    doc.coveredSeq = ++coveredCounter.value;
    doc.updated_at = coveredAt;
    doc.completed_at = coveredAt;
  }
  // As the service files it: under the status it has now, and no other.
  const terms = [...addressTerms(address), statusTerm(status)];
  return { doc, terms };
}

/** Grows the requests database to `size` requests: batches of requests, then their posting lists. */
async function seedTo(c, size, state) {
  const t0 = Date.now();
  const covered = { value: (await c.counters.findOne({ _id: 'covered' }))?.value ?? 0 };
  let top = (await c.counters.findOne({ _id: 'requests' }))?.value ?? 0;
  let postingDocs = 0;
  for (let from = top + 1; from <= size; from += BATCH) {
    const to = Math.min(size, from + BATCH - 1);
    const docs = [];
    const postings = new Map();
    for (let seq = from; seq <= to; seq++) {
      const { doc, terms } = seededRequest(seq, state.random, state.t0, covered);
      docs.push(doc);
      const range = Math.floor(seq / POSTING_RANGE);
      for (const term of terms) {
        // `<term>#<seq div 1000>`, as SearchPostings names them.
        const id = `${term}#${range}`;
        const seqs = postings.get(id);
        if (seqs) seqs.push(seq);
        else postings.set(id, [seq]);
      }
    }
    await c.requests.insertMany(docs, { ordered: false });
    // A range that begins inside this batch is new: inserted. One an earlier batch began (its
    // first seqs are below `from`) is extended, as the service's $addToSet upserts extend it.
    const fresh = [];
    const extend = [];
    for (const [id, seqs] of postings) {
      const range = Number(id.slice(id.lastIndexOf('#') + 1));
      if (range * POSTING_RANGE >= from) fresh.push({ _id: id, seqs });
      else
        extend.push({
          updateOne: { filter: { _id: id }, update: { $addToSet: { seqs: { $each: seqs } } }, upsert: true },
        });
    }
    for (let i = 0; i < fresh.length; i += BATCH)
      await c.postings.insertMany(fresh.slice(i, i + BATCH), { ordered: false });
    for (let i = 0; i < extend.length; i += BATCH)
      await c.postings.bulkWrite(extend.slice(i, i + BATCH), { ordered: false });
    postingDocs += fresh.length + extend.length;
    top = to;
    // The sequences move with each batch, as the service's nextValue would have moved them.
    await c.counters.updateOne({ _id: 'requests' }, { $set: { value: top } }, { upsert: true });
    await c.counters.updateOne({ _id: 'covered' }, { $set: { value: covered.value } }, { upsert: true });
  }
  log(
    `  ${size} requests (${covered.value} covered), ${postingDocs} posting documents written, seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
}

// ---- measuring ------------------------------------------------------------------------------------

/** The cursor of the page after `path`'s answer: next_cursor, or just below its last row when it had none. */
async function cursorAfter(gateway, token, c, path) {
  const res = await request(gateway, 'GET', path, { token });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  const body = res.json();
  if (body.next_cursor !== null) return body.next_cursor;
  // The first page already reached the oldest match: page 2 is what lies below its last row.
  const last = body.requests[body.requests.length - 1];
  const seq = last ? (await c.requests.findOne({ _id: last.id }, { projection: { seq: 1 } })).seq : 1;
  return String(Math.max(1, seq - 1));
}

async function cases(gateway, token, c) {
  const page2 = await cursorAfter(gateway, token, c, '/api/admin/requests');
  const page3 = await cursorAfter(gateway, token, c, `/api/admin/requests?cursor=${page2}`);
  const cityInProgress = `/api/admin/requests?q=${COMMON_CITY_WORD}&status=in_progress`;
  const next = await cursorAfter(gateway, token, c, cityInProgress);
  return [
    ['list, first page (50)', '/api/admin/requests'],
    ['list, page 3 (cursor)', `/api/admin/requests?cursor=${page3}`],
    ['status=requested', '/api/admin/requests?status=requested'],
    [`q=${COMMON_CITY_WORD} (common city)`, `/api/admin/requests?q=${COMMON_CITY_WORD}`],
    [
      `q=${RARE_STREET_WORD} (rare street) & status=covered`,
      `/api/admin/requests?q=${RARE_STREET_WORD}&status=covered`,
    ],
    [`q=${COMMON_CITY_WORD} & status=in_progress`, cityInProgress],
    [`q=${COMMON_CITY_WORD} & status=in_progress, page 2`, `${cityInProgress}&cursor=${next}`],
    ['peer: recent-requests (newest 20)', '/api/admin/recent-requests'],
  ];
}

/**
 * The database work of one call, counted by running the service's own list code in this process
 * against the same database with each read counted: round trips and documents read from the
 * posting lists and the requests. Exact and free of the machine's noise, it shows what a time
 * ratio is made of.
 */
async function workOf(c, path) {
  const work = { postingReads: 0, postingSeqs: 0, requestReads: 0, requestDocs: 0 };
  const counted = (collection, onDocs) =>
    new Proxy(collection, {
      get(target, prop) {
        if (prop !== 'find') return Reflect.get(target, prop, target);
        return (...args) => {
          const cursor = target.find(...args);
          const toArray = cursor.toArray.bind(cursor);
          cursor.toArray = async () => {
            const docs = await toArray();
            onDocs(docs);
            return docs;
          };
          return cursor;
        };
      },
    });
  const countedCollections = {
    ...c,
    postings: counted(c.postings, (docs) => {
      work.postingReads += 1;
      work.postingSeqs += docs.reduce((sum, d) => sum + d.seqs.length, 0);
    }),
    requests: counted(c.requests, (docs) => {
      work.requestReads += 1;
      work.requestDocs += docs.length;
    }),
  };
  // Only the list's own stores: adminList and recent read nothing else.
  const requests = new Requests({
    requests: new RequestsRepository(countedCollections, null),
    search: new SearchPostings(countedCollections),
  });
  const url = new URL(path, 'http://bench');
  if (url.pathname === '/api/admin/recent-requests') await requests.recent();
  else {
    const cursor = url.searchParams.get('cursor');
    await requests.adminList({
      q: url.searchParams.get('q') ?? undefined,
      status: url.searchParams.get('status') ?? undefined,
      limit: Number(url.searchParams.get('limit') ?? 50),
      cursor: cursor === null ? null : Number(cursor),
    });
  }
  return work;
}

async function measure(gateway, token, c) {
  const list = await cases(gateway, token, c);
  const call = async (path) => {
    const res = await request(gateway, 'GET', path, { token });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return res;
  };
  const rows = list.map(() => 0);
  const more = list.map(() => false);
  for (const [i, [, path]] of list.entries()) {
    const body = (await call(path)).json();
    rows[i] = body.requests.length;
    more[i] = body.next_cursor != null;
  }
  await pool(WARM_UP, CONCURRENCY, async () => {
    for (const [, path] of list) await call(path);
  });
  const times = list.map(() => []);
  // One sample calls every case once, in turn: a pause of the machine hits every case alike.
  await pool(SAMPLES, CONCURRENCY, async () => {
    for (const [i, [, path]] of list.entries()) times[i].push((await call(path)).ms);
  });
  const work = [];
  for (const [, path] of list) work.push(await workOf(c, path));
  return list.map(([name, path], i) => ({
    name,
    path,
    rows: rows[i],
    more: more[i],
    work: work[i],
    p50: pct(times[i], 50),
    p99: pct(times[i], 99),
  }));
}

// ---- run ------------------------------------------------------------------------------------------

const bench = await startBenchStack({ name: 'admin-list', log, settings: { RATE_LIMIT_PER_MINUTE: '1000000' } });
const { infra } = bench;
let mongo;
try {
  const gateway = bench.base;
  const token = await signInNewAdmin(bench);

  mongo = await MongoClient.connect(bench.settings.MONGO_URL);
  const c = collections(mongo.db('homereport_requests'));
  const largest = Math.max(...SIZES);
  // Creation times 15 minutes apart, the newest a month ago (a covered one's report came later).
  const state = { random: prng(19), t0: Date.now() - 30 * DAY - largest * 15 * MINUTE };
  const results = [];
  for (const size of SIZES) {
    log(`seeding up to ${size} requests`);
    await seedTo(c, size, state);
    const waited = await waitUntilIdle(infra.servers.mongo.proc.pid);
    log(`measuring ${SAMPLES} samples of each case at ${size} (the database settled for ${waited} ms)`);
    results.push({ size, rows: await measure(gateway, token, c) });
  }

  const f = (n) => n.toFixed(1);
  console.log(
    `\nLoad average after the run (2 cores, shared): ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `\nGET /api/admin/requests through the gateway as an admin, ${SAMPLES} samples per case and size, concurrency ${CONCURRENCY}, ms\n`,
  );
  const [small, ...rest] = results;
  const big = rest[rest.length - 1];
  const cells = (row) => `${f(row.p50)} / ${f(row.p99)} (${row.rows}${row.more ? '+' : ''} rows)`;
  // The sizes are measured minutes apart on a shared machine: the peer's own ratio shows how much
  // the machine itself moved between them, and each case's ratio divided by it takes that out.
  const ratio = (i, p) => big.rows[i][p] / small.rows[i][p];
  const peer = small.rows.length - 1;
  const tail = big ? ' p50 ratio | p99 ratio | p99 ratio ÷ peer’s |' : '';
  console.log(`| case | ${results.map((r) => `${r.size} p50 / p99`).join(' | ')} |${tail}`);
  console.log(`|---|${results.map(() => '---|').join('')}${big ? '---|---|---|' : ''}`);
  for (const [i, row] of small.rows.entries()) {
    const ratios = big
      ? ` ${ratio(i, 'p50').toFixed(2)}x | ${ratio(i, 'p99').toFixed(2)}x | ${(ratio(i, 'p99') / ratio(peer, 'p99')).toFixed(2)}x |`
      : '';
    console.log(`| ${row.name} | ${results.map((r) => cells(r.rows[i])).join(' | ')} |${ratios}`);
  }
  console.log('\n(n+ rows: a page of n with a next_cursor to go on from.) Goal: p99 ratio <= 1.5x.');
  console.log(
    "\nDatabase work of one call (the service's list code run against the same data, reads counted): round trips to the posting lists / posting entries read; round trips to the requests / request documents read\n",
  );
  const workCell = ({ work: w }) => `${w.postingReads} / ${w.postingSeqs}; ${w.requestReads} / ${w.requestDocs}`;
  console.log(`| case | ${results.map((r) => `${r.size}`).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---|').join('')}`);
  for (const [i, row] of small.rows.entries()) {
    console.log(`| ${row.name} | ${results.map((r) => workCell(r.rows[i])).join(' | ')} |`);
  }
} finally {
  await mongo?.close();
  await bench.stop();
}
