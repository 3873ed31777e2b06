import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { EventCatalogue, Topics } from '@homereport/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDir, repoRoot } from '../../infra/local/servers.mjs';
import { type TestUser, adminSession, closeSupport, coveredRequest } from '../../services/requests/test/support.js';
import { api, freshClientAddress } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { hasMetric, metricValue, scrapeMetrics } from '../../test/support/metrics.js';

const PROCESSES = ['gateway', 'auth', 'requests', 'files', 'zipcodes', 'leads', 'notifications'];

/** The topics each consuming process subscribes to, from the contracts' event catalogue. */
const CONSUMED: Record<string, string[]> = {};
for (const [topic, { consumers }] of Object.entries(EventCatalogue))
  for (const consumer of consumers) CONSUMED[consumer] = [...(CONSUMED[consumer] ?? []), topic];

/** The values of every sample of `name` with these labels, one per series (empty when none). */
const samples = (text: string, name: string, labels: Record<string, string>) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
    .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));

/** promtool, installed by `npm run provision` (the test setup runs it) from the Go module proxy. */
const PROMTOOL = join(cacheDir, 'bin', 'promtool');
const MONITORING = join(repoRoot, 'infra/k8s/monitoring');

function promtool(args: string[], input?: string) {
  const run = spawnSync(PROMTOOL, args, { cwd: MONITORING, input, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? String(run.error) : ''}` };
}

/** Polls until `read` returns at least `target` (events reach notifications asynchronously). */
async function until(read: () => Promise<number>, target: number, deadlineMs = 30_000): Promise<number> {
  return untilMet(read, (value) => value >= target, deadlineMs);
}

async function untilMet(read: () => Promise<number>, met: (value: number) => boolean, deadlineMs = 30_000) {
  const deadline = Date.now() + deadlineMs;
  let value = await read();
  while (!met(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

let admin: TestUser;
beforeAll(async () => {
  admin = await adminSession();
});
afterAll(closeSupport);

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
      // Every process checks a dependency (Redis at least); the series exist without probes.
      const up = samples(text, 'dependency_up', {});
      expect(up.length, `${name} dependency_up`).toBeGreaterThan(0);
      for (const value of up) expect([0, 1], `${name} dependency_up`).toContain(value);
      // A consumer's retry and dead-letter counters exist from its start, so the first dead letter
      // is an increase the alert sees (infra/k8s/monitoring/alerts.rules.yaml, EventsDeadLettered).
      for (const topic of CONSUMED[name] ?? []) {
        for (const counter of ['event_retries_total', 'events_dead_lettered_total']) {
          const values = samples(text, counter, { topic });
          expect(values, `${name} ${counter}{topic="${topic}"}`).toHaveLength(1);
          expect(values[0], `${name} ${counter}{topic="${topic}"}`).toBeGreaterThanOrEqual(0);
        }
      }
      if (!CONSUMED[name]) expect(samples(text, 'events_dead_lettered_total', {}), name).toEqual([]);
    }
  });

  it('after 5 coverage requests and an upload, each family moved as the workload did', async () => {
    const route = { route: '/api/requests', method: 'POST', status_code: '201' };
    // The gateway labels a forwarded call with its routing entry (gateway/src/routes.ts).
    const gatewayRoute = { route: '/api/requests/*', method: 'POST', status_code: '201' };
    const gatewayUpload = { route: '/api/admin/requests/:id/upload', method: 'POST', status_code: '200' };
    const published = { topic: Topics.requestSubmitted, outcome: 'ok' };
    const consumed = { topic: Topics.requestSubmitted };
    const smtp = { dependency: 'smtp', operation: 'send', outcome: 'ok' };
    const s3Put = { dependency: 's3', operation: 'putObject', outcome: 'ok' };
    const [requestsBefore, gatewayBefore, notificationsBefore, filesBefore] = await Promise.all(
      ['requests', 'gateway', 'notifications', 'files'].map(scrapeMetrics),
    );
    const before = {
      requests: requestsBefore!,
      gateway: gatewayBefore!,
      notifications: notificationsBefore!,
      files: filesBefore!,
    };
    const from = freshClientAddress();
    for (let i = 0; i < 5; i++) {
      const address = `${100 + i} Metrics ${from} Lane, Austin, TX`;
      expect((await api('POST', '/api/requests', { body: { address }, from })).status).toBe(201);
    }
    const requests = await scrapeMetrics('requests');
    const gatewayAfterRequests = await scrapeMetrics('gateway');
    const moved = (process: keyof typeof before, after: string, name: string, labels: Record<string, string>) =>
      metricValue(after, name, labels) - metricValue(before[process], name, labels);
    expect(moved('requests', requests, 'http_request_duration_seconds_count', route)).toBe(5);
    expect(moved('gateway', gatewayAfterRequests, 'http_request_duration_seconds_count', gatewayRoute)).toBe(5);
    // Route patterns only: no raw URL or address ever becomes a label.
    expect(requests).not.toContain('Metrics');
    // Each was one MongoDB write with its event, published by the relay.
    expect(
      metricValue(requests, 'dependency_call_duration_seconds_count', { dependency: 'mongo', outcome: 'ok' }),
    ).toBeGreaterThan(0);
    const publishedAfter = await until(
      async () => metricValue(await scrapeMetrics('requests'), 'events_published_total', published),
      metricValue(before.requests, 'events_published_total', published) + 5,
    );
    expect(publishedAfter - metricValue(before.requests, 'events_published_total', published)).toBeGreaterThanOrEqual(
      5,
    );
    expect(hasMetric(requests, 'outbox_pending_documents')).toBe(true);
    expect(metricValue(requests, 'outbox_oldest_pending_age_seconds')).toBeLessThan(60);

    // A covered request: its report is uploaded through the gateway, so S3 calls move with the
    // workload (start-up's bucket check alone would not), and the upload has its own route label.
    await coveredRequest(admin);
    const gateway = await scrapeMetrics('gateway');
    const files = await scrapeMetrics('files');
    expect(moved('files', files, 'dependency_call_duration_seconds_count', s3Put)).toBeGreaterThanOrEqual(1);
    expect(moved('gateway', gateway, 'http_request_duration_seconds_count', gatewayUpload)).toBe(1);
    expect(gateway).not.toMatch(/route="\/api\/admin\/requests\/[0-9a-f]/);
    // The gateway's session and rate-limit calls to Redis are timed too.
    expect(
      moved('gateway', gateway, 'dependency_call_duration_seconds_count', { dependency: 'redis' }),
    ).toBeGreaterThan(0);

    const consumedBefore = metricValue(before.notifications, 'events_consumed_total', consumed);
    const consumedAfter = await until(
      async () => metricValue(await scrapeMetrics('notifications'), 'events_consumed_total', consumed),
      consumedBefore + 5,
    );
    const events = (await scrapeMetrics('notifications'))
      .split('\n')
      .filter((l) => l.startsWith('events_') || l.startsWith('kafka_'));
    expect(consumedAfter - consumedBefore, events.join('\n')).toBeGreaterThanOrEqual(5);
    // Caught up: the group's committed offsets reach the end of every partition of the topic
    // (read from Kafka at scrape time, summed over the partitions).
    const lagFilter = { group: 'notifications', topic: Topics.requestSubmitted };
    const lag = await untilMet(
      async () => metricValue(await scrapeMetrics('notifications'), 'kafka_consumer_lag', lagFilter),
      (value) => value === 0,
    );
    const notifications = await scrapeMetrics('notifications');
    expect(samples(notifications, 'kafka_consumer_lag', lagFilter).length, 'lag series per partition').toBeGreaterThan(
      0,
    );
    expect(lag).toBe(0);
    // The staff were told of the requests: mail went out through SMTP, timed.
    expect(
      moved('notifications', notifications, 'dependency_call_duration_seconds_count', smtp),
    ).toBeGreaterThanOrEqual(1);
    // One duration per fetched group of messages (metrics/consumer.ts), so 5 events may be fewer.
    expect(
      moved('notifications', notifications, 'event_consume_duration_seconds_count', consumed),
    ).toBeGreaterThanOrEqual(1);
    // Nothing in this workload fails: no retries, no dead letters.
    for (const counter of ['event_retries_total', 'events_dead_lettered_total'])
      expect(moved('notifications', notifications, counter, consumed), counter).toBe(0);
  });

  // The alert rules and their promtool tests: infra/test/alerts.test.ts (no stack needed).
  it("promtool finds nothing to fault in any process's exposition", async () => {
    for (const name of PROCESSES) {
      const check = promtool(['check', 'metrics'], await scrapeMetrics(name));
      expect(check.status, `${name}: ${check.output}`).toBe(0);
    }
  });
});
