import type { Client as S3Client } from 'minio';
import type { MongoConnection } from '../connections/mongo.js';
import { startDependencySpan, traceDependency, traceMongo } from '../tracing/dependencies.js';
import { endSpan, tracesExported } from '../tracing/export.js';
import { type Outcome, dependencyDuration, metricsEnabled, secondsSince } from './registry.js';

export type Dependency = 'mongo' | 'redis' | 's3' | 'smtp' | 'kafka';

/** Records one call's duration on the series of its dependency, operation and outcome. */
function observeCall(dependency: Dependency, operation: string, outcome: Outcome, seconds: number): void {
  dependencyDuration.observe({ dependency, operation, outcome }, seconds);
}

/** Times one call of a dependency by operation and outcome; the call's own result or error passes through. */
export async function timeDependency<T>(dependency: Dependency, operation: string, call: () => Promise<T>): Promise<T> {
  // A span of the current trace too, when traces are exported (tracing/dependencies.ts).
  if (!metricsEnabled()) return traceDependency(dependency, operation, call);
  const start = process.hrtime.bigint();
  try {
    const result = await traceDependency(dependency, operation, call);
    observeCall(dependency, operation, 'ok', secondsSince(start));
    return result;
  } catch (err) {
    observeCall(dependency, operation, 'error', secondsSince(start));
    throw err;
  }
}

/**
 * MongoDB: the driver's command monitoring (the connection opens with `monitorCommands`) gives each
 * command's name and duration as the server answered, so every model and collection call is
 * timed without wrapping them. Operation is the command name (find, insert, update, ...).
 */
export function instrumentMongo(conn: MongoConnection): void {
  const client = conn.getClient();
  traceMongo(client);
  if (!metricsEnabled()) return;
  client.on('commandSucceeded', (event) => {
    observeCall('mongo', event.commandName, 'ok', event.duration / 1000);
  });
  client.on('commandFailed', (event) => {
    observeCall('mongo', event.commandName, 'error', event.duration / 1000);
  });
}

/**
 * Starts watching one Redis command (its duration, its span): the returned function is called
 * when the command settles; null when neither metrics nor traces are on. Redis commands we send
 * are a fixed set in code, so the command name is a bounded label. Called from the one wrapper
 * around the client's commands (connections/breaker.ts).
 */
export function watchRedisCommand(name: string): ((err?: unknown) => void) | null {
  const timed = metricsEnabled();
  // Sent in the caller's async context: the span joins its trace (none when tracing is off).
  const span = startDependencySpan('redis', name);
  if (!timed && !span) return null;
  const start = timed ? process.hrtime.bigint() : 0n;
  return (err) => {
    if (timed) observeCall('redis', name, err === undefined ? 'ok' : 'error', secondsSince(start));
    if (span) endSpan(span, err);
  };
}

/** The S3 calls the services make; for getObject the time is until the body starts to arrive. */
const S3_OPERATIONS = [
  'bucketExists',
  'makeBucket',
  'putObject',
  'getObject',
  'statObject',
  'removeObject',
  'initiateNewMultipartUpload',
  'uploadPart',
  'completeMultipartUpload',
  'abortMultipartUpload',
] as const;

/**
 * Wraps the client's calls for their duration and their span: either one alone is reason enough
 * (METRICS_PORT=0 with OTEL_EXPORTER_OTLP_ENDPOINT set still traces S3).
 */
export function instrumentS3(client: S3Client): void {
  if (!metricsEnabled() && !tracesExported()) return;
  const methods = client as unknown as Record<string, unknown>;
  for (const operation of S3_OPERATIONS) {
    const original = methods[operation];
    if (typeof original !== 'function') continue;
    methods[operation] = (...args: unknown[]) =>
      timeDependency('s3', operation, () => (original as (...a: unknown[]) => Promise<unknown>).apply(client, args));
  }
}
