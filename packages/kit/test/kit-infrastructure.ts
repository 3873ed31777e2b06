import { afterAll, beforeAll } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { Infrastructure, createLogger } from '../src/index.js';

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
