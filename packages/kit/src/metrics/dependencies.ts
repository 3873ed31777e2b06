import type { Redis } from 'ioredis';
import type { Client as S3Client } from 'minio';
import type { Connection } from 'mongoose';
import { startDependencySpan, traceDependency, traceMongo } from '../tracing/dependencies.js';
import { endSpan, tracesExported } from '../tracing/export.js';
import { dependencyDuration, metricsEnabled } from './registry.js';

export type Dependency = 'mongo' | 'redis' | 's3' | 'smtp' | 'kafka';

/** Times one call of a dependency by operation and outcome; the call's own result or error passes through. */
export async function timeDependency<T>(dependency: Dependency, operation: string, call: () => Promise<T>): Promise<T> {
  // A span of the current trace too, when traces are exported (tracing/dependencies.ts).
  if (!metricsEnabled()) return traceDependency(dependency, operation, call);
  const end = dependencyDuration.startTimer({ dependency, operation });
  try {
    const result = await traceDependency(dependency, operation, call);
    end({ outcome: 'ok' });
    return result;
  } catch (err) {
    end({ outcome: 'error' });
    throw err;
  }
}

/**
 * MongoDB: the driver's command monitoring (the connection opens with `monitorCommands`) gives each
 * command's name and duration as the server answered, so every model and collection call is
 * timed without wrapping them. Operation is the command name (find, insert, update, ...).
 */
export function instrumentMongo(conn: Connection): void {
  const client = conn.getClient();
  traceMongo(client);
  if (!metricsEnabled()) return;
  client.on('commandSucceeded', (event) => {
    dependencyDuration.observe(
      { dependency: 'mongo', operation: event.commandName, outcome: 'ok' },
      event.duration / 1000,
    );
  });
  client.on('commandFailed', (event) => {
    dependencyDuration.observe(
      { dependency: 'mongo', operation: event.commandName, outcome: 'error' },
      event.duration / 1000,
    );
  });
}

/** Redis commands we send are a fixed set in code, so the command name is a bounded label. */
export function instrumentRedis(redis: Redis): void {
  if (!metricsEnabled() && !tracesExported()) return;
  const send = redis.sendCommand.bind(redis);
  const timed = metricsEnabled();
  redis.sendCommand = ((command, stream) => {
    const end = timed ? dependencyDuration.startTimer({ dependency: 'redis', operation: command.name }) : null;
    // Sent in the caller's async context: the span joins its trace (none when tracing is off).
    const span = startDependencySpan('redis', command.name);
    command.promise.then(
      () => {
        end?.({ outcome: 'ok' });
        if (span) endSpan(span);
      },
      (err: unknown) => {
        end?.({ outcome: 'error' });
        if (span) endSpan(span, err);
      },
    );
    return send(command, stream);
  }) as Redis['sendCommand'];
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

export function instrumentS3(client: S3Client): void {
  if (!metricsEnabled()) return;
  const methods = client as unknown as Record<string, unknown>;
  for (const operation of S3_OPERATIONS) {
    const original = methods[operation];
    if (typeof original !== 'function') continue;
    methods[operation] = (...args: unknown[]) =>
      timeDependency('s3', operation, () => (original as (...a: unknown[]) => Promise<unknown>).apply(client, args));
  }
}
