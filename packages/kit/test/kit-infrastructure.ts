import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import {
  Infrastructure,
  type ProcessedEvent,
  createLogger,
  deadLetterTopic,
  ensureTopics,
  type startConsumer,
} from '../src/index.js';

/**
 * The kit's connections to the test run's real MongoDB (database `kit_test`) and Kafka, opened
 * before the file's tests and closed after them. Call at the top of a test file; the returned
 * function gives the open Infrastructure inside tests.
 */
export function useKitInfrastructure(name: string): () => Infrastructure {
  const env = testEnv();
  let infra: Infrastructure | undefined;
  beforeAll(async () => {
    infra = await Infrastructure.open(
      name,
      { MONGO_URL: env.mongoUrl, KAFKA_BROKERS: env.kafkaBrokers },
      { mongoDb: 'kit_test', kafkaTopics: [] },
      createLogger({ name, level: 'silent', format: 'json' }),
    );
  });
  afterAll(async () => {
    await infra?.publisher.close();
    await infra?.mongo.close();
  });
  return () => {
    if (!infra) throw new Error('the kit infrastructure is not open yet');
    return infra;
  };
}

/** A topic and a consumer group of one test's own: the topic and the group's dead-letter topic created. */
export async function freshTopic(infra: Infrastructure, prefix: string) {
  const topic = `${prefix}-${randomUUID().slice(0, 8)}`;
  const groupId = `${prefix}-group-${randomUUID().slice(0, 8)}`;
  await ensureTopics(infra.kafka, [topic, deadLetterTopic(groupId)], 1);
  return { topic, groupId };
}

/**
 * What every consumer of these tests shares (startConsumer's options): the run's Kafka, the claims
 * in `kit_test.processed_events`, the kit's publisher and its silent logger.
 */
export const kitConsumer = (infra: Infrastructure) =>
  ({
    kafka: infra.kafka,
    processed: infra.mongo.db!.collection<ProcessedEvent>('processed_events'),
    publisher: infra.publisher,
    logger: infra.logger,
  }) satisfies Partial<Parameters<typeof startConsumer>[0]>;
