// The steady mixed workload of bench:faults and bench:soak: what users, staff and ad platforms do
// through the gateway (sign-ins, session checks, report opens, the covered list, coverage
// requests, inbound leads, a small report upload), sent at a fixed rate whatever the answers
// (an open loop: a slow or failing stack does not slow the clients down, as real users do not
// wait for each other). Every call is recorded with its start, end, status and Retry-After, and
// every write the stack accepted is remembered, so the benchmarks can check afterwards that each
// was kept, that its event reached Kafka and that no email went out twice.
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { benchUser, signInNewAdmin, startBenchStack } from './support.mjs';

/** Calls that take longer than this count as unanswered. */
const CLIENT_TIMEOUT_MS = 10_000;
const PASSWORD = 'bench-password-1234';

/** Share of each kind of call in the mix (weights). Sign-ins are argon2id: few, as in life. */
export const MIX = [
  ['session check', 25],
  ['covered list', 20],
  ['report open', 15],
  ['coverage request', 12],
  ['inbound lead', 12],
  ['sign-in', 1],
  ['upload', 2],
];
const TOTAL_WEIGHT = MIX.reduce((s, [, w]) => s + w, 0);

/** One call through the gateway with fetch; never rejects: a call that got no answer has status 0. */
async function call(base, method, path, { body, token, headers = {}, form } = {}) {
  const t0 = Date.now();
  try {
    const res = await fetch(new URL(path, base), {
      method,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    const text = await res.text();
    return {
      t0,
      t1: Date.now(),
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      json: () => JSON.parse(text),
    };
  } catch (err) {
    return { t0, t1: Date.now(), status: 0, retryAfter: null, error: err.name ?? 'Error', json: () => ({}) };
  }
}

/** A small but real PDF: the files service checks the content. */
const reportPdf = (id) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% report of ${id} ${randomUUID()}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
    'latin1',
  );

function uploadForm(id) {
  const form = new FormData();
  form.append('report', new Blob([reportPdf(id)], { type: 'application/pdf' }), 'report.pdf');
  return form;
}

const uniqueAddress = () =>
  `${Math.floor(Math.random() * 9000) + 100} ${randomUUID().slice(0, 8)} Bench Road, Austin, TX`;

async function must(res, what, status = 200) {
  if (res.status !== status) throw new Error(`${what} answered ${res.status}`);
  return res.json();
}

/**
 * The stack's settings for the mix: its sign-ins come from one address at a rate no real client
 * sends, so the rate limit and the login throttles are set where they never refuse.
 */
export const WORKLOAD_SETTINGS = {
  RATE_LIMIT_PER_MINUTE: '10000000',
  LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000000',
  LOGIN_MAX_FAILURES_PER_IP: '1000000',
  LOGIN_SLOWDOWN_AFTER: '1000000',
  // Every coverage request gets its own receipt (no hourly digest), so checkWrites can tell each
  // receipt sent twice under a fault.
  RECEIPTS_PER_HOUR_BEFORE_DIGEST: '0',
  // Its admin and users request coverage far faster than an account may.
  ACCOUNT_REQUESTS_PER_HOUR: '1000000',
};

/** The calls per second to send: `flagRate` when given, else half the measured capacity (at least 5). */
export async function chooseRate(workload, flagRate, log) {
  const given = Number(flagRate ?? 0);
  if (given) return given;
  const capacity = await measureCapacity(workload);
  const rate = Math.max(5, Math.round(capacity / 2));
  log(`capacity ${capacity.toFixed(0)} calls/s with 24 clients; sending ${rate}/s`);
  return rate;
}

/**
 * Everything the mix needs, made before the clock starts: users who sign in (stored as auth
 * stores them), sessions, three covered reports to open, requests to upload files to, and a
 * webhook key. `directMongoUrl` is the database's own address (not through a proxy).
 */
export async function prepareWorkload({ base, settings, directMongoUrl, log }) {
  const adminToken = await signInNewAdmin({ base, settings });
  const { SessionStore } = await import('../packages/kit/src/sessions.ts');
  const { Redis } = await import('ioredis');
  const argon2 = (await import('argon2')).default;

  const mongo = new MongoClient(directMongoUrl);
  await mongo.connect();
  const passwordHash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
  const signInEmails = Array.from(
    { length: 20 },
    (_, i) => `bench-faults-${i}-${randomUUID().slice(0, 6)}@example.com`,
  );
  await mongo
    .db('homereport_auth')
    .collection('users')
    .insertMany(signInEmails.map((email) => benchUser(email, passwordHash)));

  // Signed-in users with accounts, as auth's sessions name them: a session of a user the database
  // lacks is answered 401 by the session check (a deleted account), a quick answer that measures nothing.
  const userEmails = Array.from({ length: 200 }, () => `bench-user-${randomUUID().slice(0, 8)}@example.com`);
  const { insertedIds } = await mongo
    .db('homereport_auth')
    .collection('users')
    .insertMany(userEmails.map((email) => benchUser(email, passwordHash)));
  const redis = new Redis(settings.REDIS_URL);
  const store = new SessionStore(redis);
  const users = [];
  for (const [i, email] of userEmails.entries()) {
    users.push({ email, token: await store.create({ userId: insertedIds[i].toHexString(), email, role: 'user' }) });
  }
  await redis.quit();

  const covered = [];
  for (let i = 0; i < 3; i++) {
    const { request } = await must(
      await call(base, 'POST', '/api/requests', { body: { address: uniqueAddress() }, token: adminToken }),
      'a request',
      201,
    );
    await must(
      await call(base, 'POST', `/api/admin/requests/${request.id}/upload`, {
        token: adminToken,
        form: uploadForm(request.id),
      }),
      'an upload',
    );
    await must(
      await call(base, 'PUT', `/api/admin/requests/${request.id}/status`, {
        token: adminToken,
        body: { status: 'covered' },
      }),
      'covering a request',
    );
    covered.push(request.id);
  }
  const uploadTargets = [];
  for (let i = 0; i < 40; i++) {
    const { request } = await must(
      await call(base, 'POST', '/api/requests', { body: { address: uniqueAddress() }, token: adminToken }),
      'a request',
      201,
    );
    uploadTargets.push(request.id);
  }
  const keyName = `bench-faults-${randomUUID().slice(0, 6)}`;
  const { webhook_key: webhookKey } = await must(
    await call(base, 'POST', '/api/admin/webhook-keys', { token: adminToken, body: { key_name: keyName } }),
    'a webhook key',
    201,
  );
  await call(base, 'GET', '/api/requests/covered');
  log(
    `workload ready: ${users.length} sessions, ${covered.length} covered reports, ${uploadTargets.length} upload targets`,
  );
  return { base, adminToken, signInEmails, users, covered, uploadTargets, keyName, webhookKey, mongo };
}

/** The calls of the mix; each returns the call's record and, for an accepted write, what to check. */
const OPERATIONS = {
  'session check': (w, i) => call(w.base, 'GET', '/api/auth/me', { token: w.users[i % w.users.length].token }),
  'covered list': (w) => call(w.base, 'GET', '/api/requests/covered', { headers: { 'accept-encoding': 'br' } }),
  'report open': (w, i) => {
    const user = w.users[i % w.users.length];
    return call(w.base, 'GET', `/api/requests/${w.covered[i % w.covered.length]}/view`, { token: user.token });
  },
  'coverage request': async (w, i) => {
    const user = w.users[i % w.users.length];
    const address = uniqueAddress();
    const res = await call(w.base, 'POST', '/api/requests', { body: { address }, token: user.token });
    if (res.status === 201) res.write = { type: 'request', id: res.json().request.id, address, email: user.email };
    return res;
  },
  'inbound lead': async (w, i) => {
    const leadId = `lead-${randomUUID()}`;
    const res = await call(w.base, 'POST', '/api/webhooks/leads', {
      headers: { 'x-webhook-key': w.webhookKey },
      body: { lead_id: leadId, first_name: 'Bench', last_name: `Lead ${i}`, email: `lead-${i}@bench.example` },
    });
    if (res.status === 200) res.write = { type: 'lead', id: `${encodeURIComponent(w.keyName)}:${leadId}`, leadId };
    return res;
  },
  'sign-in': (w, i) =>
    call(w.base, 'POST', '/api/auth/login', {
      body: { email: w.signInEmails[i % w.signInEmails.length], password: PASSWORD },
    }),
  upload: async (w, i) => {
    const id = w.uploadTargets[i % w.uploadTargets.length];
    const res = await call(w.base, 'POST', `/api/admin/requests/${id}/upload`, {
      token: w.adminToken,
      form: uploadForm(id),
    });
    if (res.status === 200) res.write = { type: 'upload', id };
    return res;
  },
};

/** The mix's kind for call number i (a fixed interleaving, so every second holds the same mix). */
function kindOf(i) {
  let slot = (i * 7919) % TOTAL_WEIGHT;
  for (const [kind, weight] of MIX) {
    if (slot < weight) return kind;
    slot -= weight;
  }
  return MIX[0][0];
}

async function runOne(w, i, records) {
  const kind = kindOf(i);
  const res = await OPERATIONS[kind](w, i);
  const record = {
    kind,
    t0: res.t0,
    t1: res.t1,
    status: res.status,
    retryAfter: res.retryAfter,
    error: res.error,
    write: res.write,
  };
  records.push(record);
  return record;
}

/**
 * Closed loop for `seconds` with `workers` clients each waiting for its answer: the calls per
 * second the stack sustains with this mix. The benchmarks send half of it.
 */
export async function measureCapacity(w, { seconds = 10, workers = 24 } = {}) {
  const records = [];
  const until = Date.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < until) await runOne(w, next++, records);
    }),
  );
  const ok = records.filter((r) => r.status > 0 && r.status < 500).length;
  return ok / seconds;
}

/**
 * Sends the mix at `rate` calls a second until stop() is called; resolves stop() once the calls
 * in flight have answered. At most `maxInFlight` wait at once: past that a call is not sent and
 * counted in `skipped` (the stack is far behind; a real client would have given up too).
 */
export function startLoad(w, { rate, records, maxInFlight = 400 }) {
  let sent = 0;
  let inFlight = 0;
  let skipped = 0;
  const started = Date.now();
  const pending = new Set();
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - started) / 1000) * rate);
    while (sent < due) {
      const i = sent++;
      if (inFlight >= maxInFlight) {
        skipped++;
        continue;
      }
      inFlight++;
      const p = runOne(w, i, records).finally(() => {
        inFlight--;
        pending.delete(p);
      });
      pending.add(p);
    }
  }, 10);
  return {
    get skipped() {
      return skipped;
    },
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}

/** p-th percentile (nearest rank) of the answer times of `records`, in ms. */
export function p(records, q) {
  if (records.length === 0) return 0;
  const ms = records.map((r) => r.t1 - r.t0).sort((a, b) => a - b);
  return ms[Math.min(ms.length - 1, Math.floor((q / 100) * ms.length))];
}

/** Counts of a set of records: answered, 5xx, 503 with Retry-After, unanswered, p99. */
export function tally(records) {
  const answered = records.filter((r) => r.status > 0);
  const failed = answered.filter((r) => r.status >= 500);
  return {
    answered: answered.length,
    fiveHundreds: failed.length,
    with503: failed.filter((r) => r.status === 503 && Number(r.retryAfter) > 0).length,
    unanswered: records.length - answered.length,
    p99: p(answered, 99),
  };
}

/**
 * A Kafka consumer, from the beginning of the topics the checked writes publish to (request-submitted,
 * lead-received), collecting the ids their events carry.
 */
export async function collectEvents(brokers) {
  const kafka = new Kafka({ clientId: 'bench-events', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `bench-${randomUUID()}` });
  const seen = new Set();
  await consumer.connect();
  await consumer.subscribe({ topics: ['request-submitted', 'lead-received'], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      try {
        const event = JSON.parse(message.value.toString());
        if (topic === 'request-submitted') seen.add(`request:${event.data.request.id}`);
        else seen.add(`lead:${event.data.lead_id}`);
      } catch {}
    },
  });
  return { seen, stop: () => consumer.disconnect() };
}

/**
 * What became of the accepted writes among `records`: stored (requests and leads in their
 * databases, uploads as a request with a report file), their events on Kafka, and requester
 * receipts sent more than once (one per request and address is right), with when each copy
 * arrived.
 */
export async function checkWrites(w, records, { events, maildevUrl }) {
  const writes = records.filter((r) => r.write).map((r) => r.write);
  const ids = (type) => writes.filter((x) => x.type === type).map((x) => x.id);
  const missing = new Set();
  const present = async (db, collection, wanted) => {
    const found = new Set();
    for (let i = 0; i < wanted.length; i += 500) {
      const docs = await w.mongo
        .db(db)
        .collection(collection)
        .find({ _id: { $in: wanted.slice(i, i + 500) } }, { projection: { _id: 1 } })
        .toArray();
      for (const d of docs) found.add(String(d._id));
    }
    for (const id of wanted) if (!found.has(id)) missing.add(id);
  };
  await present('homereport_requests', 'requests', ids('request'));
  await present('homereport_leads', 'leads', ids('lead'));
  // An upload answered 200 names its file on the request: the request has a report afterwards.
  const uploaded = [...new Set(ids('upload'))];
  for (let i = 0; i < uploaded.length; i += 500) {
    const docs = await w.mongo
      .db('homereport_requests')
      .collection('requests')
      .find({ _id: { $in: uploaded.slice(i, i + 500) } })
      .toArray();
    const withFile = new Set(docs.filter((d) => Object.keys(d.files ?? {}).length > 0).map((d) => d._id));
    for (const id of uploaded) if (!withFile.has(id)) missing.add(id);
  }
  const eventLost = new Set();
  for (const x of writes) {
    if (x.type === 'request' && !events.has(`request:${x.id}`)) eventLost.add(x.id);
    if (x.type === 'lead' && !events.has(`lead:${x.leadId}`)) eventLost.add(x.id);
  }
  // Receipts: one email per request to its requester; the subject names the (unique) address.
  // `twice`: request id -> its copies ({ at, messageId }, first arrived first).
  const twice = new Map();
  const res = await fetch(new URL('/email', maildevUrl));
  const emails = res.ok ? await res.json() : [];
  const receipts = new Map();
  for (const mail of emails) {
    const to = (mail.to ?? []).map((a) => a.address).join(',');
    const key = `${to}|${mail.subject}`;
    receipts.set(key, [...(receipts.get(key) ?? []), mail]);
  }
  for (const x of writes) {
    if (x.type !== 'request') continue;
    const copies = receipts.get(`${x.email}|We received your request for ${x.address}`) ?? [];
    if (copies.length > 1)
      twice.set(
        x.id,
        copies.map((m) => ({ at: arrivedAt(m), messageId: m.messageId })).sort((a, b) => a.at - b.at),
      );
  }
  return { writes, missing, eventLost, twice };
}

/**
 * When maildev took a message, in ms: its stored file's modification time (the local maildev
 * keeps each message as a file, written as it arrives), else its Date header (whole seconds).
 */
function arrivedAt(mail) {
  try {
    return statSync(mail.source).mtimeMs;
  } catch {
    return Date.parse(mail.time ?? mail.date);
  }
}

/**
 * The start and end bench:faults and bench:soak share, here beside the workload (support.mjs,
 * which this module imports, holds the start-up of every bench): the servers and the whole stack
 * with WORKLOAD_SETTINGS (startBenchStack), the workload's accounts and data, and a consumer of
 * the events the checked writes publish. Resolves with startBenchStack's answer and `workload`,
 * `events`, `eventsSettled()`, `checkWrites(records)` and a `stop` that ends all of it.
 */
export async function startWorkloadStack({ name, log, runtime }) {
  const bench = await startBenchStack({ name, log, settings: WORKLOAD_SETTINGS, runtime });
  let workload;
  let events;
  const stop = async () => {
    await events?.stop().catch(() => {});
    await workload?.mongo.close().catch(() => {});
    await bench.stop();
  };
  try {
    const directMongoUrl = `mongodb://127.0.0.1:${bench.infra.servers.mongo.port}/`;
    workload = await prepareWorkload({ base: bench.base, settings: bench.settings, directMongoUrl, log });
    events = await collectEvents(bench.settings.KAFKA_BROKERS);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    ...bench,
    workload,
    events,
    /** Events and emails trail the writes: waits until nothing new arrives for 5 s (at most 90 s). */
    async eventsSettled() {
      for (let last = -1, quiet = 0, waited = 0; quiet < 5 && waited < 90; waited++) {
        await new Promise((r) => setTimeout(r, 1000));
        quiet = events.seen.size === last ? quiet + 1 : 0;
        last = events.seen.size;
      }
    },
    checkWrites: (records) =>
      checkWrites(workload, records, { events: events.seen, maildevUrl: bench.settings.MAILDEV_URL }),
    stop,
  };
}

/** Load average of the machine (1, 5, 15 minutes), for the notes under a table. */
export async function loadAverage() {
  const os = await import('node:os');
  return os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' / ');
}
