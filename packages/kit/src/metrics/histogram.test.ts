import { describe, expect, it } from 'vitest';
import { dependencyDuration, enableMetrics, scrape } from './registry.js';

/** The samples of one metric as `name{sorted labels}` -> value, so label order does not matter. */
function samples(text: string, metric: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(metric)) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = (m[2] ?? '').match(/[a-z_]+="(?:[^"\\]|\\.)*"/g) ?? [];
    out.set(`${m[1]}{${labels.sort().join(',')}}`, Number(m[3]));
  }
  return out;
}

describe('the duration histograms', () => {
  enableMetrics('unit');
  const name = 'dependency_call_duration_seconds';

  it("count each observation into its buckets, cumulative as Prometheus reads them, with the process's label", async () => {
    const observations: [string, 'ok' | 'error', number][] = [
      ['find', 'ok', 0.001],
      ['find', 'ok', 0.005],
      ['find', 'ok', 0.05],
      ['find', 'error', 2],
      ['insert', 'ok', 0.2],
      ['insert', 'ok', 7],
    ];
    for (const [operation, outcome, value] of observations)
      dependencyDuration.observe({ dependency: 'mongo', operation, outcome }, value);
    const got = samples(await scrape(), name);
    const find = 'dependency="mongo",operation="find",outcome="ok",service="unit"';
    expect(got.get(`${name}_bucket{dependency="mongo",le="+Inf",operation="find",outcome="ok",service="unit"}`)).toBe(
      3,
    );
    expect(got.get(`${name}_bucket{dependency="mongo",le="0.005",operation="find",outcome="ok",service="unit"}`)).toBe(
      2,
    );
    expect(got.get(`${name}_count{${find}}`)).toBe(3);
    expect(got.get(`${name}_count{dependency="mongo",operation="insert",outcome="ok",service="unit"}`)).toBe(2);
    // Above the last bucket (2.5 s): only in +Inf, the count and the sum.
    expect(got.get(`${name}_bucket{dependency="mongo",le="2.5",operation="insert",outcome="ok",service="unit"}`)).toBe(
      1,
    );
    expect(got.get(`${name}_sum{dependency="mongo",operation="insert",outcome="ok",service="unit"}`)).toBeCloseTo(7.2);
  });

  it('escapes label values as the exposition format requires', async () => {
    dependencyDuration.observe({ dependency: 'mongo', operation: 'a"b\\c\nd', outcome: 'ok' }, 0.5);
    expect(await scrape()).toMatch(/dependency_call_duration_seconds_count\{[^}]*operation="a\\"b\\\\c\\nd"[^}]*\} 1/);
  });
});
