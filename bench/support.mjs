// Helpers the benchmark scripts share: a timed HTTP call, percentiles, a bounded worker pool, a
// process's CPU time.
import { readFileSync } from 'node:fs';
import http from 'node:http';

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

/** The p-th percentile (nearest rank) of `values`. */
export const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** Runs fn(0) … fn(count - 1), at most `concurrency` at a time; resolves with their results in order. */
export async function pool(count, concurrency, fn) {
  let next = 0;
  const results = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await fn(i);
      }
    }),
  );
  return results;
}

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
