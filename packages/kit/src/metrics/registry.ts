import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One registry per process. Metrics are recorded only once `enableMetrics` ran (runService does it
 * when METRICS_PORT is not 0), so operator commands, unit tests and a gateway run with metrics off
 * pay nothing: every instrumentation point asks `metricsEnabled()` when it is set up, not per call.
 */
export const registry = new Registry();

let enabled = false;

export function metricsEnabled(): boolean {
  return enabled;
}

/**
 * Turns recording on for this process, every sample labelled with its `service`, and adds Node's
 * runtime metrics (prom-client's defaults: CPU, memory, heap spaces, event-loop delay, GC).
 */
export function enableMetrics(service: string): void {
  if (enabled) return;
  enabled = true;
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which promtool's lint faults; the same counts by type stay
  // (nodejs_active_handles, nodejs_active_requests, nodejs_active_resources).
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);
}

/** Seconds; most answers take a few ms, the slow end covers uploads and a dependency's deadline. */
const HTTP_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DEPENDENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by route pattern (never the raw URL), method and status code.',
  labelNames: ['route', 'method', 'status_code'] as const,
  buckets: HTTP_BUCKETS,
  registers: [registry],
});

/** Requests in flight as a plain number the HTTP hooks move; the gauge reads it when scraped. */
export const inFlight = { count: 0 };

export const httpInFlight = new Gauge({
  name: 'http_requests_in_flight',
  help: 'HTTP requests received and not yet answered or aborted.',
  registers: [registry],
  collect() {
    this.set(inFlight.count);
  },
});

export const dependencyDuration = new Histogram({
  name: 'dependency_call_duration_seconds',
  help: 'Calls to MongoDB, Redis, S3 and SMTP by dependency, operation and outcome (ok or error).',
  labelNames: ['dependency', 'operation', 'outcome'] as const,
  buckets: DEPENDENCY_BUCKETS,
  registers: [registry],
});

export const dependencyUp = new Gauge({
  name: 'dependency_up',
  help: '1 when the last readiness check of the dependency passed, 0 when it failed.',
  labelNames: ['dependency'] as const,
  registers: [registry],
});

export const outboxPending = new Gauge({
  name: 'outbox_pending_documents',
  help: 'Documents whose events wait in the outbox (pending markers), read at scrape time.',
  registers: [registry],
});

export const outboxOldestAge = new Gauge({
  name: 'outbox_oldest_pending_age_seconds',
  help: 'Age of the oldest pending outbox marker (0 when none), read at scrape time.',
  registers: [registry],
});

export const eventsPublished = new Counter({
  name: 'events_published_total',
  help: 'Events published to Kafka, by topic and outcome (ok or error).',
  labelNames: ['topic', 'outcome'] as const,
  registers: [registry],
});

export const eventsConsumed = new Counter({
  name: 'events_consumed_total',
  help: 'Events a consumer finished, by topic and outcome (handled, duplicate or dead_lettered).',
  labelNames: ['topic', 'outcome'] as const,
  registers: [registry],
});

export const eventConsumeDuration = new Histogram({
  name: 'event_consume_duration_seconds',
  help: 'Time from fetching an event to finishing it (handler included), by topic.',
  labelNames: ['topic'] as const,
  buckets: HTTP_BUCKETS,
  registers: [registry],
});

export const eventRetries = new Counter({
  name: 'event_retries_total',
  help: 'Failed handler attempts that will be retried, by topic.',
  labelNames: ['topic'] as const,
  registers: [registry],
});

export const deadLetters = new Counter({
  name: 'events_dead_lettered_total',
  help: 'Events sent to the dead-letter topic after their last attempt failed, by topic.',
  labelNames: ['topic'] as const,
  registers: [registry],
});

export const consumerLag = new Gauge({
  name: 'kafka_consumer_lag',
  help: 'Messages between the group committed offset and the end of the partition, read at scrape time.',
  labelNames: ['group', 'topic', 'partition'] as const,
  registers: [registry],
});

/** Seconds since `start` (a `process.hrtime.bigint()` reading). */
export const secondsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

/** Label value of an error outcome: bounded, the kind of failure never its message. */
export type Outcome = 'ok' | 'error';

type ScrapeHook = () => Promise<void>;
const scrapeHooks = new Set<ScrapeHook>();

/**
 * Work that refreshes gauges read from elsewhere (outbox markers, Kafka offsets) when Prometheus
 * asks, rather than on a timer: an unscraped process does none of it. Returns the removal.
 */
export function onScrape(hook: ScrapeHook): () => void {
  scrapeHooks.add(hook);
  return () => scrapeHooks.delete(hook);
}

/**
 * Runs the scrape hooks, each bounded by `deadlineMs` (a hung broker must not hang the scrape;
 * its gauges then keep their last values), and returns the exposition text.
 */
export async function scrape(deadlineMs = 2000): Promise<string> {
  await Promise.all(
    [...scrapeHooks].map((hook) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, deadlineMs);
      });
      return Promise.race([hook().catch(() => undefined), deadline]).finally(() => clearTimeout(timer));
    }),
  );
  return registry.metrics();
}
