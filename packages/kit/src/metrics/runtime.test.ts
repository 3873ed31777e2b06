import { describe, expect, it } from 'vitest';
import { enableMetrics, scrape } from './registry.js';

/** The value of the sample `name{labels}` in exposition text (labels in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => present.includes(`${k}="${v}"`))) return Number(match[3]);
  }
  return undefined;
}

function busy(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe("Node's runtime metrics", () => {
  it('report memory, heap spaces, CPU, descriptors, event-loop delay and every garbage collection', async () => {
    enableMetrics('runtime-unit');
    await scrape();
    // Garbage made across event-loop turns, as a server makes it. prom-client's collector counts
    // the first collection of each batch its observer is handed, one batch per turn at most: every
    // collection under load (158 of 159 in a loaded HTTP server, decision 029), but one for all the
    // collections of a single long synchronous stretch.
    let keep: object[] = [];
    for (let turn = 0; turn < 60; turn++) {
      for (let i = 0; i < 5e4; i++) {
        keep.push({ i });
        if (keep.length > 10_000) keep = [];
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    // A stalled loop: the delay statistics of the next scrape see it, and only that scrape's.
    await new Promise((resolve) => setTimeout(resolve, 30));
    busy(120);
    await new Promise((resolve) => setTimeout(resolve, 30));

    const text = await scrape();
    for (const name of [
      'nodejs_heap_size_total_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_external_memory_bytes',
      'process_resident_memory_bytes',
    ])
      expect(sample(text, name), name).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeLessThanOrEqual(
      sample(text, 'nodejs_heap_size_total_bytes')!,
    );
    for (const name of ['total', 'used', 'available'])
      expect(sample(text, `nodejs_heap_space_size_${name}_bytes`, { space: 'old' }), name).toBeGreaterThan(0);
    // Above 0 only: how much CPU a worker has used by now depends on what else the machine runs.
    expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    // One reading for the three: user and system add up to the total of the same scrape.
    expect(
      sample(text, 'process_cpu_user_seconds_total')! + sample(text, 'process_cpu_system_seconds_total')!,
    ).toBeCloseTo(sample(text, 'process_cpu_seconds_total')!, 6);
    expect(sample(text, 'process_open_fds')).toBeGreaterThan(2);
    expect(sample(text, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThan(0.1);
    expect(sample(text, 'nodejs_version_info', { version: process.version })).toBe(1);
    // Three million short-lived objects take many scavenges; each one is counted.
    expect(sample(text, 'nodejs_gc_duration_seconds_count', { kind: 'minor' })).toBeGreaterThan(10);
    expect(sample(text, 'nodejs_gc_duration_seconds_sum', { kind: 'minor' })).toBeGreaterThan(0);

    const quiet = await scrape();
    expect(sample(quiet, 'nodejs_eventloop_lag_max_seconds')).toBeLessThan(0.1);
  });
});
