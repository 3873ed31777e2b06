import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Topics } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { cacheDir, repoRoot } from '../../infra/local/servers.mjs';
import { api, freshClientAddress } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { hasMetric, metricValue, scrapeMetrics } from '../../test/support/metrics.js';

const PROCESSES = ['gateway', 'auth', 'requests', 'files', 'zipcodes', 'leads', 'notifications'];

/** promtool, installed by `npm run provision` (the test setup runs it) from the Go module proxy. */
const PROMTOOL = join(cacheDir, 'bin', 'promtool');
const MONITORING = join(repoRoot, 'infra/k8s/monitoring');

function promtool(args: string[], input?: string) {
  const run = spawnSync(PROMTOOL, args, { cwd: MONITORING, input, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? String(run.error) : ''}` };
}

/** Polls until `read` returns at least `target` (events reach notifications asynchronously). */
async function until(read: () => Promise<number>, target: number, deadlineMs = 30_000): Promise<number> {
  const deadline = Date.now() + deadlineMs;
  let value = await read();
  while (value < target && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

describe('metrics', () => {
  it('are never served through the public gateway', async () => {
    const res = await api('GET', '/api/metrics');
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('http_request_duration_seconds');
  });

  it("every process serves Node's defaults and its own HTTP metrics on its metrics port", async () => {
    expect(Object.keys(testEnv().metricsPorts).sort()).toEqual([...PROCESSES].sort());
    for (const name of PROCESSES) {
      const text = await scrapeMetrics(name);
      for (const metric of [
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
        'nodejs_gc_duration_seconds',
        'http_request_duration_seconds',
        'http_requests_in_flight',
      ])
        expect(hasMetric(text, metric), `${name} ${metric}`).toBe(true);
      expect(text, name).toContain(`service="${name}"`);
    }
  });

  it('after 5 coverage requests the route counters moved by 5 and notifications consumed them', async () => {
    const route = { route: '/api/requests', method: 'POST', status_code: '201' };
    const gatewayRoute = { route: '/api/*', method: 'POST', status_code: '201' };
    const published = { topic: Topics.requestSubmitted, outcome: 'ok' };
    const consumed = { topic: Topics.requestSubmitted };
    const [requestsBefore, gatewayBefore, notificationsBefore] = await Promise.all(
      ['requests', 'gateway', 'notifications'].map(scrapeMetrics),
    );
    const from = freshClientAddress();
    for (let i = 0; i < 5; i++) {
      const address = `${100 + i} Metrics ${from} Lane, Austin, TX`;
      expect((await api('POST', '/api/requests', { body: { address }, from })).status).toBe(201);
    }
    const requests = await scrapeMetrics('requests');
    const gateway = await scrapeMetrics('gateway');
    const moved = (before: string, after: string, name: string, labels: Record<string, string>) =>
      metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(moved(requestsBefore ?? '', requests, 'http_request_duration_seconds_count', route)).toBe(5);
    expect(moved(gatewayBefore ?? '', gateway, 'http_request_duration_seconds_count', gatewayRoute)).toBe(5);
    // Route patterns only: no raw URL or address ever becomes a label.
    expect(requests).not.toContain('Metrics');
    // Each was one MongoDB write with its event, published by the relay.
    expect(
      metricValue(requests, 'dependency_call_duration_seconds_count', { dependency: 'mongo', outcome: 'ok' }),
    ).toBeGreaterThan(0);
    const publishedAfter = await until(
      async () => metricValue(await scrapeMetrics('requests'), 'events_published_total', published),
      metricValue(requestsBefore ?? '', 'events_published_total', published) + 5,
    );
    expect(
      publishedAfter - metricValue(requestsBefore ?? '', 'events_published_total', published),
    ).toBeGreaterThanOrEqual(5);
    expect(hasMetric(requests, 'outbox_pending_documents')).toBe(true);
    expect(metricValue(requests, 'outbox_oldest_pending_age_seconds')).toBeLessThan(60);
    // The gateway's session and rate-limit calls to Redis are timed too.
    expect(metricValue(gateway, 'dependency_call_duration_seconds_count', { dependency: 'redis' })).toBeGreaterThan(0);
    expect(
      metricValue(await scrapeMetrics('files'), 'dependency_call_duration_seconds_count', { dependency: 's3' }),
    ).toBeGreaterThan(0);

    const consumedBefore = metricValue(notificationsBefore ?? '', 'events_consumed_total', consumed);
    const consumedAfter = await until(
      async () => metricValue(await scrapeMetrics('notifications'), 'events_consumed_total', consumed),
      consumedBefore + 5,
    );
    const events = (await scrapeMetrics('notifications'))
      .split('\n')
      .filter((l) => l.startsWith('events_') || l.startsWith('kafka_'));
    expect(consumedAfter - consumedBefore, events.join('\n')).toBeGreaterThanOrEqual(5);
    const notifications = await scrapeMetrics('notifications');
    // One duration per fetched group of messages (metrics/consumer.ts), so 5 events may be fewer.
    const durationsBefore = metricValue(notificationsBefore ?? '', 'event_consume_duration_seconds_count', consumed);
    expect(
      metricValue(notifications, 'event_consume_duration_seconds_count', consumed) - durationsBefore,
    ).toBeGreaterThanOrEqual(1);
    // Lag per partition of the group, read from Kafka at scrape time.
    expect(notifications).toMatch(
      new RegExp(
        `^kafka_consumer_lag\\{group="notifications",topic="${Topics.requestSubmitted}",partition="\\d+"`,
        'm',
      ),
    );
  });

  it('promtool accepts the alert rules and the scrape configuration', () => {
    const rules = promtool(['check', 'rules', 'alerts.rules.yaml']);
    expect(rules.status, rules.output).toBe(0);
    expect(rules.output).toMatch(/SUCCESS: \d+ rules found/);
    // The config names the rule file, so this checks both together.
    const config = promtool(['check', 'config', 'prometheus.yaml']);
    expect(config.status, config.output).toBe(0);
  });

  it("promtool finds nothing to fault in any process's exposition", async () => {
    for (const name of PROCESSES) {
      const check = promtool(['check', 'metrics'], await scrapeMetrics(name));
      expect(check.status, `${name}: ${check.output}`).toBe(0);
    }
  });
});
