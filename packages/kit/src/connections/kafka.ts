import { Kafka, type LogEntry, logLevel } from 'kafkajs';
import type { ServiceApp } from '../app.js';
import type { Logger } from '../logger.js';
import { tcpReachable } from '../readiness.js';

export type { Kafka } from 'kafkajs';

export function createKafka(brokers: string[], clientId: string, logger: Logger): Kafka {
  const log = logger.child({ component: 'kafka' });
  return new Kafka({
    clientId,
    brokers,
    connectionTimeout: 2000,
    requestTimeout: 10000,
    // Short retries: the outbox keeps events safe while Kafka is away, so waiting here gains nothing.
    retry: { retries: 3, initialRetryTime: 300, maxRetryTime: 3000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        const { message, ...rest } = entry;
        if (level <= logLevel.ERROR) log.error(rest, message);
        else log.warn(rest, message);
      },
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
