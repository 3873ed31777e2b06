// `npm run bench:upload`: does a large report upload stream, or pile up in memory? Starts the
// real servers and the whole stack on their own ports (BENCH_PORT_OFFSET, default 1600), then
// uploads one 200 MB file (BENCH_UPLOAD_MB) as an admin through the gateway, as multipart, the
// body generated while it is sent, and samples the resident memory (VmRSS) of the gateway and
// the files service every 20 ms. It prints each process's growth over its resting size and the
// combined peak growth (goal: at most 64 MB), the time taken, and checks the stored object's size.
// Figures, not a pass/fail test: the machine is shared. Services log at warn during the run.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { Redis } from 'ioredis';
import { startBenchStack, timedRequest } from './support.mjs';

process.env.TEST_PORT_OFFSET = process.env.BENCH_PORT_OFFSET ?? '1600';
const { SessionStore } = await import('../packages/kit/src/sessions.ts');
const { createS3Client } = await import('../packages/kit/src/connections/s3.ts');

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const log = (m) => console.log(`[bench] ${m}`);

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** POSTs one `sizeBytes` PDF as the `report` part, generating the body as the socket takes it. */
function upload(base, requestId, token, sizeBytes) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="report"; filename="large report.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(MB, 0x20);
  const url = new URL(`/api/admin/requests/${requestId}/upload`, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + sizeBytes + tail.length,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }),
        );
      },
    );
    req.on('error', reject);
    let sent = 0;
    const pump = () => {
      if (sent === 0) {
        req.write(head);
        const first = Buffer.concat([Buffer.from('%PDF-1.7\n'), chunk.subarray(9, Math.min(MB, sizeBytes))]);
        sent += first.length;
        if (!req.write(first)) return req.once('drain', pump);
      }
      while (sent < sizeBytes) {
        const piece = chunk.subarray(0, Math.min(MB, sizeBytes - sent));
        sent += piece.length;
        if (!req.write(piece)) return req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

const bench = await startBenchStack({
  name: 'upload',
  log,
  settings: {
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_UPLOAD_BYTES: String((SIZE_MB + 16) * MB),
    UPLOAD_BODY_LIMIT_BYTES: String((SIZE_MB + 32) * MB),
    // BENCH_NODE_OPTIONS: more V8 flags for the stack's processes (their heap is already sized
    // from the memory limit, packages/kit/bin/heap.mjs).
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
  },
});
const { infra, stack } = bench;
let redis;
try {
  const pids = Object.fromEntries(stack.processes.map((p) => [p.name, p.child.pid]));
  redis = new Redis(infra.settings.REDIS_URL);
  const token = await new SessionStore(redis).create({
    userId: 'bench-admin',
    email: 'bench@example.com',
    role: 'admin',
  });
  const created = await timedRequest(stack.url, 'POST', '/api/requests', {
    body: { address: '1 Upload Way, Austin, TX' },
  });
  const requestId = created.json().request.id;
  // Warm-up: a small upload loads every module the path needs.
  const warm = await upload(stack.url, requestId, token, 64 * 1024);
  if (warm.status !== 200) throw new Error(`warm-up upload answered ${warm.status}: ${JSON.stringify(warm.body)}`);
  await new Promise((r) => setTimeout(r, 2000));

  const s3 = createS3Client({
    endpoint: infra.settings.S3_ENDPOINT,
    accessKey: infra.settings.S3_ACCESS_KEY,
    secretKey: infra.settings.S3_SECRET_KEY,
    bucket: 'homereport-reports',
    region: 'us-east-1',
  });
  const rows = [];
  for (let run = 1; run <= RUNS; run++) {
    const base = { gateway: rssKb(pids.gateway), files: rssKb(pids.files) };
    const peak = { ...base, combined: base.gateway + base.files };
    const timer = setInterval(() => {
      const g = rssKb(pids.gateway);
      const f = rssKb(pids.files);
      peak.gateway = Math.max(peak.gateway, g);
      peak.files = Math.max(peak.files, f);
      peak.combined = Math.max(peak.combined, g + f);
    }, 20);
    const started = Date.now();
    const res = await upload(stack.url, requestId, token, SIZE_MB * MB);
    const seconds = (Date.now() - started) / 1000;
    clearInterval(timer);
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
    const key = new URL(res.body.request.report_path, 'http://x').pathname.replace('/api/files/', '');
    const stored = await s3.statObject('homereport-reports', key);
    rows.push({
      run,
      seconds,
      base,
      peak,
      stored: stored.size,
    });
    await new Promise((r) => setTimeout(r, 2000));
  }
  const mb = (kb) => (kb / 1024).toFixed(1);
  console.log(
    `\n| run | ${SIZE_MB} MB upload time s (MB/s) | gateway RSS rest → peak MB (growth) | files RSS rest → peak MB (growth) | combined peak growth MB | object stored |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.run} | ${r.seconds.toFixed(1)} (${(SIZE_MB / r.seconds).toFixed(0)}) | ${mb(r.base.gateway)} → ${mb(r.peak.gateway)} (+${mb(r.peak.gateway - r.base.gateway)}) | ${mb(r.base.files)} → ${mb(r.peak.files)} (+${mb(r.peak.files - r.base.files)}) | ${mb(r.peak.combined - r.base.gateway - r.base.files)} | ${r.stored === SIZE_MB * MB ? `${SIZE_MB} MB, complete` : `${r.stored} bytes (expected ${SIZE_MB * MB})`} |`,
    );
  }
  const worst = Math.max(...rows.map((r) => r.peak.combined - r.base.gateway - r.base.files)) / 1024;
  console.log(`\nworst combined peak RSS growth of gateway + files: ${worst.toFixed(1)} MB (goal <= 64 MB)`);
} finally {
  await redis?.quit().catch(() => {});
  await bench.stop();
}
