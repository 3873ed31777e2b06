// `npm run bench:data`: does the data layer hold at scale? Starts the real servers and the whole
// stack on their own ports (BENCH_PORT_OFFSET, default 900), seeds the auth database and an
// outbox-carrying collection with 1k and then 100k documents, and prints for both sizes:
// session check and sign-in latency through the gateway, lookups per second by unique index,
// the CPU share of the database server plus a relay while idle, and write-to-event delay.
// Figures, not a pass/fail test: this machine is noisy, so compare the two sizes of one run.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import argon2 from 'argon2';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient, ObjectId } from 'mongodb';
import {
  benchUser,
  cpuSeconds,
  nextLoopbackAddress,
  pct,
  pool,
  requestFromNewAddress,
  startBenchStack,
} from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '900';

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const PASSWORD = 'bench-password-123';
const log = (m) => console.log(`[bench] ${m}`);

// Every request from its own loopback address: per-address limits stay out of the figures.
const request = requestFromNewAddress;

async function seed(mongoUrl, size, passwordHash) {
  const client = await MongoClient.connect(mongoUrl);
  try {
    const users = client.db('homereport_auth').collection('users');
    const messages = client.db('homereport_notifications').collection('contact_messages');
    const have = await users.estimatedDocumentCount();
    const batch = 5000;
    for (let from = have; from < size; from += batch) {
      const to = Math.min(size, from + batch);
      const docs = [];
      const notes = [];
      for (let i = from; i < to; i++) {
        docs.push({ _id: new ObjectId(), ...benchUser(`bench-${i}@example.com`, passwordHash) });
        notes.push({
          _id: randomUUID(),
          name: `Bench ${i}`,
          email: `bench-${i}@example.com`,
          subject: 'Seeded',
          message: 'A seeded message with an empty outbox.',
          created_at: new Date(),
          outbox: [],
        });
      }
      await users.insertMany(docs, { ordered: false });
      await messages.insertMany(notes, { ordered: false });
    }
    return client;
  } catch (err) {
    await client.close();
    throw err;
  }
}

async function measure(size, ctx) {
  const { gateway, mongoUrl, kafkaBrokers, pids } = ctx;
  const client = await seed(mongoUrl, size, ctx.passwordHash);
  const users = client.db('homereport_auth').collection('users');
  const pick = () => `bench-${Math.floor(Math.random() * size)}@example.com`;
  try {
    // Lookups per second by the unique email index, straight to the database.
    for (let i = 0; i < 200; i++) await users.findOne({ email: pick() });
    const lookupN = 2000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < lookupN; i++) await users.findOne({ email: pick() }, { projection: { _id: 1 } });
    const lookupsPerSecond = lookupN / (Number(process.hrtime.bigint() - t0) / 1e9);

    // Sign-in through the gateway (argon2id verification included).
    const signIns = await pool(120, 4, async () => {
      const res = await request(gateway, 'POST', '/api/auth/login', { body: { email: pick(), password: PASSWORD } });
      if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
      return res;
    });
    const tokens = signIns.map((r) => r.json().token);
    const signInMs = signIns.map((r) => r.ms);

    // Session check through the gateway.
    const sessionMs = (
      await pool(2000, 8, async (i) => {
        const res = await request(gateway, 'GET', '/api/auth/me', { token: tokens[i % tokens.length] });
        if (res.status !== 200) throw new Error(`session check answered ${res.status}`);
        return res;
      })
    ).map((r) => r.ms);

    // Write to event: a contact message and its contact-message-received event on Kafka.
    const kafka = new Kafka({ clientId: 'bench', brokers: kafkaBrokers.split(','), logLevel: logLevel.NOTHING });
    const consumer = kafka.consumer({ groupId: `bench-${randomUUID()}` });
    const arrivals = new Map();
    await consumer.connect();
    await consumer.subscribe({ topics: ['contact-message-received'], fromBeginning: false });
    let assigned = false;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      assigned = true;
    });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const reqId = message.headers?.['x-request-id']?.toString();
        if (reqId) arrivals.set(reqId, Date.now());
      },
    });
    while (!assigned) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000));
    const sent = new Map();
    for (let i = 0; i < 60; i++) {
      const reqId = `bench-${randomUUID()}`;
      const at = Date.now();
      const res = await new Promise((resolve, reject) => {
        const body = JSON.stringify({
          name: 'Bench',
          email: `writer-${randomUUID().slice(0, 8)}@example.com`,
          subject: 'Bench',
          message: 'Write to event delay',
        });
        const url = new URL('/api/contact', gateway);
        const req = http.request(
          {
            hostname: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            localAddress: nextLoopbackAddress(),
            headers: { 'content-type': 'application/json', 'x-request-id': reqId },
          },
          (r) => {
            r.resume();
            r.on('end', () => resolve(r.statusCode));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      if (res !== 202) throw new Error(`contact answered ${res}`);
      sent.set(reqId, at);
      await new Promise((r) => setTimeout(r, 50));
    }
    const deadline = Date.now() + 30_000;
    while (arrivals.size < sent.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await consumer.disconnect();
    const delays = [...sent].map(([id, at]) => (arrivals.has(id) ? arrivals.get(id) - at : Number.POSITIVE_INFINITY));

    // Idle CPU of the database server and the services that run relays (auth, notifications).
    await new Promise((r) => setTimeout(r, 8000));
    const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
    const before = pids.map(cpuSeconds);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const after = pids.map(cpuSeconds);
    const share = (i) => ((after[i] - before[i]) / idleSeconds) * 100;
    // The goal counts the database server and a relay: auth runs a relay and no consumer.
    // Notifications (a relay plus a Kafka consumer's heartbeats and fetches) is shown beside it.
    const idleCpu = share(0) + share(1);
    log(
      `idle CPU % by process: mongo ${share(0).toFixed(2)}, auth ${share(1).toFixed(2)}, notifications ${share(2).toFixed(2)}`,
    );

    return {
      size,
      signInP50: pct(signInMs, 50),
      signInP99: pct(signInMs, 99),
      sessionP50: pct(sessionMs, 50),
      sessionP99: pct(sessionMs, 99),
      lookupsPerSecond,
      idleCpuPercent: idleCpu,
      idleNotificationsPercent: share(2),
      eventP50: pct(delays, 50),
      eventP99: pct(delays, 99),
      eventsLost: delays.filter((d) => !Number.isFinite(d)).length,
    };
  } finally {
    await client.close();
  }
}

const bench = await startBenchStack({
  name: 'data',
  log,
  settings: { RATE_LIMIT_PER_MINUTE: '1000000', CONTACT_RATE_LIMIT_PER_HOUR: '1000000' },
});
const { infra, stack } = bench;
try {
  const byName = Object.fromEntries(stack.processes.map((p) => [p.name, p.child.pid]));
  // Order matters: mongo, auth, notifications (see measure()).
  const pids = [infra.servers.mongo.proc.pid, byName.auth, byName.notifications];
  const passwordHash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
  const rows = [];
  for (const size of SIZES) {
    log(`seeding ${size} users and ${size} outbox-carrying documents, then measuring`);
    rows.push(
      await measure(size, {
        gateway: stack.url,
        mongoUrl: infra.settings.MONGO_URL,
        kafkaBrokers: infra.settings.KAFKA_BROKERS,
        pids,
        passwordHash,
      }),
    );
  }
  const f = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'lost');
  console.log(
    '\n| documents | sign-in p50 / p99 ms | session check p50 / p99 ms | lookups/s (unique index) | idle CPU % of one core: db + relay (auth) / notifications | write→event p50 / p99 ms |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.size} | ${f(r.signInP50)} / ${f(r.signInP99)} | ${f(r.sessionP50)} / ${f(r.sessionP99)} | ${f(r.lookupsPerSecond, 0)} | ${f(r.idleCpuPercent, 2)} / ${f(r.idleNotificationsPercent, 2)} | ${f(r.eventP50, 0)} / ${f(r.eventP99, 0)}${r.eventsLost ? ` (${r.eventsLost} lost)` : ''} |`,
    );
  }
  if (rows.length === 2) {
    const [small, big] = rows;
    console.log(
      `\nratios ${big.size} vs ${small.size}: sign-in p99 ${(big.signInP99 / small.signInP99).toFixed(2)}x, session p99 ${(big.sessionP99 / small.sessionP99).toFixed(2)}x (goal <= 1.5x); idle CPU ${f(big.idleCpuPercent, 2)}% (goal < 2%); write→event p99 ${f(big.eventP99, 0)} ms (goal < 1000)`,
    );
  }
} finally {
  await bench.stop();
}
