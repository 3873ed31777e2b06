// What the side-by-side benchmarks (bench/gateway.mjs, bench/metrics.mjs) share: one autocannon
// turn with the loaded process's CPU cost, and several turns folded into one figure.
import autocannon from 'autocannon';
import { cpuSeconds } from './support.mjs';

/**
 * One autocannon turn of `duration` seconds; with `pid`, also that process's CPU milliseconds per
 * answered request, which the machine's other load changes far less than the rate does.
 */
export async function load(url, connections, { duration, headers = {}, pid } = {}) {
  const before = pid === undefined ? 0 : cpuSeconds(pid);
  const result = await new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, pipelining: 1, headers }, (err, r) => (err ? reject(err) : resolve(r)));
  });
  if (pid !== undefined)
    result.cpuMsPerRequest = ((cpuSeconds(pid) - before) * 1000) / Math.max(1, result.requests.total);
  return result;
}

const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** autocannon results of several turns as one: mean rate, p50, p99 and CPU ms; summed failures. */
export const meanOf = (results) => ({
  rps: mean(results.map((r) => r.requests.average)),
  p50: mean(results.map((r) => r.latency.p50)),
  p99: mean(results.map((r) => r.latency.p99)),
  cpuMs: mean(results.map((r) => r.cpuMsPerRequest)),
  failed: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
});
