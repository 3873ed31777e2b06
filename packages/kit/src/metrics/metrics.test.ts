import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceApp } from '../app.js';
import { createLogger } from '../logger.js';
import { zeroConsumerCounters } from './consumer.js';
import { timeDependency } from './dependencies.js';
import { enableMetrics, httpInFlight, onScrape, outboxPending, registry, scrape } from './registry.js';
import { startMetricsServer } from './server.js';

const logger = createLogger({ name: 'metrics-test', level: 'silent', format: 'json' });

/** The value of one sample line in the exposition text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics', () => {
  beforeAll(() => enableMetrics('unit'));
  afterAll(() => registry.resetMetrics());

  it('labels HTTP requests by route pattern, never the raw URL', async () => {
    const app = await createServiceApp({ name: 'unit', logger });
    app.get('/things/:id', async () => ({ ok: true }));
    await app.ready();
    for (const id of ['a1', 'b2', 'c3']) await app.inject({ method: 'GET', url: `/things/${id}?q=secret` });
    await app.inject({ method: 'GET', url: '/nothing/here/42' });
    const text = await scrape();
    const count = (route: string, status: string) =>
      sample(text, 'http_request_duration_seconds_count', { route, method: 'GET', status_code: status });
    expect(count('/things/:id', '200')).toBe(3);
    expect(count('unmatched', '404')).toBe(1);
    expect(text).not.toContain('a1');
    expect(text).not.toContain('/nothing/here');
    expect(text).toContain('service="unit"');
    expect((await httpInFlight.get()).values[0]?.value).toBe(0);
    await app.close();
  });

  it("labels a catch-all route with the label its handler set (the gateway's routing entry)", async () => {
    const app = await createServiceApp({ name: 'unit', logger });
    app.all('/fwd/*', async (req) => {
      if (req.url.startsWith('/fwd/known/')) req.routeLabel = '/fwd/known/*';
      return { ok: true };
    });
    await app.ready();
    for (const id of ['x1', 'y2']) await app.inject({ method: 'GET', url: `/fwd/known/${id}` });
    await app.inject({ method: 'GET', url: '/fwd/other' });
    const text = await scrape();
    const count = (route: string) =>
      sample(text, 'http_request_duration_seconds_count', { route, method: 'GET', status_code: '200' });
    expect(count('/fwd/known/*')).toBe(2);
    expect(count('/fwd/*')).toBe(1);
    expect(text).not.toContain('x1');
    await app.close();
  });

  it("has the retry and dead-letter series of a started consumer's topics at 0", async () => {
    zeroConsumerCounters(['unit-topic']);
    const text = await scrape();
    expect(text).toMatch(/^event_retries_total\{topic="unit-topic",service="unit"\} 0$/m);
    expect(text).toMatch(/^events_dead_lettered_total\{topic="unit-topic",service="unit"\} 0$/m);
  });

  it('runs the readiness checks when scraped, unless a run is recent, so dependency_up exists without probes', async () => {
    const app = await createServiceApp({ name: 'unit', logger });
    let checks = 0;
    app.readiness.add('unit-dependency', async () => {
      checks++;
    });
    try {
      expect(sample(await scrape(), 'dependency_up', { dependency: 'unit-dependency' })).toBe(1);
      await scrape();
      expect(checks).toBe(1);
    } finally {
      await app.close();
    }
    // Closed: its checks no longer run at scrape time.
    await scrape();
    expect(checks).toBe(1);
  });

  it('counts a request in flight until it is answered or its client goes away', async () => {
    const app = await createServiceApp({ name: 'unit', logger });
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let arrived = () => {};
    const reached = new Promise<void>((r) => {
      arrived = r;
    });
    app.get('/slow', async () => {
      arrived();
      await held;
      return { ok: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const inFlightNow = async () => (await httpInFlight.get()).values[0]?.value;
    try {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const aborted = new AbortController();
      const gone = fetch(`${base}/slow`, { signal: aborted.signal }).catch(() => 'aborted');
      await reached;
      expect(await inFlightNow()).toBe(1);
      aborted.abort();
      await gone;
      await vi.waitFor(async () => expect(await inFlightNow()).toBe(0));
      const answered = fetch(`${base}/slow`);
      release();
      expect((await answered).status).toBe(200);
      await vi.waitFor(async () => expect(await inFlightNow()).toBe(0));
    } finally {
      release();
      await app.close();
    }
  });

  it('times dependency calls by outcome and passes their result or error through', async () => {
    await expect(timeDependency('smtp', 'send', async () => 'sent')).resolves.toBe('sent');
    await expect(timeDependency('smtp', 'send', async () => Promise.reject(new Error('refused')))).rejects.toThrow(
      'refused',
    );
    const text = await scrape();
    const labels = { dependency: 'smtp', operation: 'send' };
    expect(sample(text, 'dependency_call_duration_seconds_count', { ...labels, outcome: 'ok' })).toBe(1);
    expect(sample(text, 'dependency_call_duration_seconds_count', { ...labels, outcome: 'error' })).toBe(1);
  });

  it('serves GET /metrics only, refreshing scrape-time gauges, and a hung hook does not hang the scrape', async () => {
    const removeFast = onScrape(async () => outboxPending.set(7));
    const removeHung = onScrape(() => new Promise<void>(() => {}));
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, logger });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toMatch(/^outbox_pending_documents\{service="unit"\} 7$/m);
      expect(text).toContain('nodejs_eventloop_lag_seconds');
      expect((await fetch(`${base}/other`)).status).toBe(404);
    } finally {
      removeFast();
      removeHung();
      server.close();
    }
  }, 10_000);
});
