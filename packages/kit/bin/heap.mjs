// The V8 heap of every process, sized from its container's memory limit. The one place that
// sizes it: the local stack (infra/local/stack.mjs) starts each process with these flags for the
// limit its pod has, the image's CMD runs `node $(node packages/kit/bin/heap.mjs) <entry>`, and the
// manifests hand the container's limit to it (MEMORY_LIMIT_MIB from the downward API,
// infra/k8s/base/patches). Plain JavaScript, no dependency: it runs before the process it sizes.
//
// Why: unsized, V8 takes a quarter of the machine (a 4 GB old generation on a 16 GB node) and
// collects lazily, so a write burst took `requests` past its 256Mi limit (issue 41) although
// little of that heap was alive. `--max-heap-size` bounds old and young generation together, and
// V8 derives a small young generation from it (1 MB semi-spaces for heaps of 128-256 MB, measured
// on Node 20 and 24), which is what the former per-process `--max-semi-space-size` flags did by
// hand; docs/decisions/021-deployment-defaults-and-heap-sizing.md.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * The share of the container's limit the JavaScript heap may take: the rest is the process's
 * code, native memory (Buffers, TLS, argon2's hashing in auth), and the headroom that keeps the
 * peak at 80% of the limit or less (issue 41): about 50-70 MB besides the heap per process.
 */
export const HEAP_SHARE_OF_LIMIT = 0.5;
/** No smaller heap than this, whatever the limit: below it a process spends its time collecting. */
export const MIN_HEAP_MIB = 64;
/** cgroup v1 reports "no limit" as a number near 2^63. */
const UNLIMITED_MIB = 2 ** 40;

/** The heap, in MiB, for a container limit in MiB. */
export function heapMib(limitMib) {
  if (!Number.isFinite(limitMib) || limitMib <= 0) throw new Error(`not a memory limit: ${limitMib}`);
  return Math.max(MIN_HEAP_MIB, Math.floor(limitMib * HEAP_SHARE_OF_LIMIT));
}

/** The node flags for a container limit in MiB; none without a limit (V8's own sizing). */
export function heapFlagsFor(limitMib) {
  return limitMib === undefined ? [] : [`--max-heap-size=${heapMib(limitMib)}`];
}

/** The cgroup's memory limit in MiB (v2, else v1), undefined when there is none or no cgroup. */
export function cgroupLimitMib(read = (path) => readFileSync(path, 'utf8')) {
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    let text;
    try {
      text = read(file).trim();
    } catch {
      continue;
    }
    if (text === 'max') return undefined;
    const mib = Number(text) / 2 ** 20;
    return Number.isFinite(mib) && mib > 0 && mib < UNLIMITED_MIB ? Math.floor(mib) : undefined;
  }
  return undefined;
}

/**
 * The container's limit in MiB: MEMORY_LIMIT_MIB (the manifests pass `limits.memory` with divisor
 * 1Mi; the local stack the limit of the process's pod), else the cgroup's (docker compose's
 * mem_limit), else undefined. A MEMORY_LIMIT_MIB that is not a positive number stops the start.
 */
export function containerLimitMib(env = process.env, read = undefined) {
  const setting = env.MEMORY_LIMIT_MIB;
  if (setting !== undefined && setting !== '') {
    const mib = Number(setting);
    if (!Number.isFinite(mib) || mib <= 0)
      throw new Error(`MEMORY_LIMIT_MIB must be a number of MiB, not "${setting}"`);
    return mib;
  }
  return cgroupLimitMib(read);
}

/** The node flags of a process in this environment. */
export function heapFlags(env = process.env, read = undefined) {
  return heapFlagsFor(containerLimitMib(env, read));
}

// `node packages/kit/bin/heap.mjs` prints the flags, for `exec node $(...) <entry>`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.stdout.write(`${heapFlags().join(' ')}\n`);
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(64);
  }
}
