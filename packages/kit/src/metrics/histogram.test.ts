import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BucketHistogram } from './histogram.js';

/** Each sample line as `name{sorted labels}` -> value, so two expositions can be compared. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = (m[2] ?? '').match(/[a-z_]+="(?:[^"\\]|\\.)*"/g) ?? [];
    out.set(`${m[1]}{${labels.sort().join(',')}}`, Number(m[3]));
  }
  return out;
}

describe('BucketHistogram', () => {
  const buckets = [0.005, 0.01, 0.1, 1];
  const observations: [string, string, number][] = [
    ['/a', '200', 0.001],
    ['/a', '200', 0.005],
    ['/a', '200', 0.05],
    ['/a', '500', 2],
    ['/b/:id', '200', 0.2],
    ['/b/:id', '200', 7],
  ];

  it('exposes the same samples as prom-client for the same observations', async () => {
    const registry = new Registry();
    registry.setDefaultLabels({ service: 'unit' });
    const reference = new Histogram({
      name: 'x_seconds',
      help: 'h',
      labelNames: ['route', 'status'],
      buckets,
      registers: [registry],
    });
    const ours = new BucketHistogram('x_seconds', 'h', ['route', 'status'], buckets);
    const series = new Map<string, ReturnType<typeof ours.series>>();
    for (const [route, status, value] of observations) {
      reference.observe({ route, status }, value);
      const key = `${route} ${status}`;
      if (!series.has(key)) series.set(key, ours.series({ route, status }));
      series.get(key)?.observe(value);
    }
    const expected = samples(await registry.metrics());
    const got = samples(ours.expose('service="unit"'));
    expect(got).toEqual(expected);
    expect(got.get('x_seconds_bucket{le="+Inf",route="/a",service="unit",status="200"}')).toBe(3);
    expect(got.get('x_seconds_bucket{le="0.005",route="/a",service="unit",status="200"}')).toBe(2);
    expect(got.get('x_seconds_count{route="/b/:id",service="unit",status="200"}')).toBe(2);
  });

  it('escapes label values as the exposition format requires', () => {
    const h = new BucketHistogram('y_seconds', 'help', ['op'], [1]);
    h.series({ op: 'a"b\\c\nd' }).observe(0.5);
    expect(h.expose('')).toContain('y_seconds_count{op="a\\"b\\\\c\\nd"} 1');
  });

  it('refuses buckets that do not increase', () => {
    expect(() => new BucketHistogram('z', 'h', [], [1, 1])).toThrow(/increasing/);
  });
});
