import { kafkaTopicsOf } from '@homereport/contracts';
import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadZipcodesConfig } from './config.js';

await runService(
  'zipcodes',
  () => loadZipcodesConfig(),
  async (config, logger) => {
    // Kafka for the watch alerts it publishes and the account deletions it hears of.
    const infra = await Infrastructure.open(
      'zipcodes',
      config,
      { mongoDb: config.MONGO_DB, redis: true, kafkaTopics: kafkaTopicsOf('zipcodes') },
      logger,
    );
    return buildApp({ config, logger, infra });
  },
);
