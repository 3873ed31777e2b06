import { createRequire } from 'node:module';
import { Kafka, type LogEntry, logLevel } from 'kafkajs';
import type { ServiceApp } from '../app.js';
import type { Logger } from '../logger.js';
import { tcpReachable } from '../readiness.js';

export type { Kafka } from 'kafkajs';

// kafkajs' table of broker error codes; `retriable` marks the ones it retries by itself.
const { errorCodes } = createRequire(import.meta.url)('kafkajs/src/protocol/error.js') as {
  errorCodes: { message: string; retriable: boolean }[];
};
const RETRIABLE_ERRORS = new Set(errorCodes.filter((e) => e.retriable).map((e) => e.message));
const TRANSIENT_MESSAGES =
  /connection error|connection timeout|closed connection|ECONNREFUSED|ECONNRESET|rebalanc|coordinator|leader|restarting the consumer|failed to connect to seed broker|not the correct controller/i;

/**
 * Failures the caller handles itself: a topic another service created a moment earlier (kafkajs
 * treats "already exists" as success, after logging the broker's answer at error level).
 */
const HANDLED_BY_CALLER = new Set(['Topic creation errors']);

/** How long a retriable problem must go on before it is worth a warning. */
const PERSISTENT_AFTER_MS = 60_000;

/**
 * Sorts kafkajs' log entries by what an operator must do about them. Most of what kafkajs logs at
 * ERROR is retriable and retried by itself: a broker that is still starting, a group coordinator
 * not elected yet, a rebalance when a member joins. Those go to debug, and only when the same
 * problem is still there after a minute does it reach the log as one warning. Everything else
 * keeps its level.
 */
export function kafkaLogSink(log: Logger, now: () => number = Date.now) {
  const ongoing = new Map<string, { first: number; last: number; warned: boolean }>();
  return ({ level, log: entry }: LogEntry) => {
    const { message, ...rest } = entry;
    const error = typeof rest.error === 'string' ? rest.error : '';
    const transient =
      HANDLED_BY_CALLER.has(error) ||
      'retryCount' in rest ||
      'retryTime' in rest ||
      RETRIABLE_ERRORS.has(error) ||
      TRANSIENT_MESSAGES.test(message) ||
      TRANSIENT_MESSAGES.test(error);
    if (!transient) {
      if (level <= logLevel.ERROR) log.error(rest, message);
      else if (level === logLevel.WARN) log.warn(rest, message);
      else log.debug(rest, message);
      return;
    }
    const key = `${rest.namespace ?? ''}|${error || message}`;
    const at = now();
    let problem = ongoing.get(key);
    if (!problem || at - problem.last > PERSISTENT_AFTER_MS) {
      problem = { first: at, last: at, warned: false };
      ongoing.set(key, problem);
    }
    problem.last = at;
    if (!problem.warned && at - problem.first >= PERSISTENT_AFTER_MS) {
      problem.warned = true;
      log.warn({ ...rest, sinceSeconds: Math.round((at - problem.first) / 1000) }, `${message} (still failing)`);
    } else {
      log.debug(rest, message);
    }
    if (ongoing.size > 200) {
      for (const [k, p] of ongoing) if (at - p.last > PERSISTENT_AFTER_MS) ongoing.delete(k);
    }
  };
}

export function createKafka(brokers: string[], clientId: string, logger: Logger): Kafka {
  const sink = kafkaLogSink(logger.child({ component: 'kafka' }));
  return new Kafka({
    clientId,
    brokers,
    connectionTimeout: 2000,
    requestTimeout: 10000,
    // Short retries: the outbox keeps events safe while Kafka is away, so waiting here gains nothing.
    retry: { retries: 3, initialRetryTime: 300, maxRetryTime: 3000 },
    logLevel: logLevel.WARN,
    logCreator: () => sink,
  });
}

/** Creates the topics a service publishes or consumes; an existing topic is left as it is. */
export async function ensureTopics(kafka: Kafka, topics: string[], numPartitions = 3): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ topic, numPartitions, replicationFactor: 1 })),
      });
    }
  } finally {
    await admin.disconnect();
  }
}

export function registerKafkaReadiness(app: ServiceApp, brokers: string[]): void {
  // A TCP probe answers in a second; a kafkajs admin call would sit in its retries while Kafka is away.
  app.readiness.add('kafka', () => Promise.any(brokers.map((b) => tcpReachable(b))));
}
