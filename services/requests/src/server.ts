import { kafkaTopicsOf } from '@homereport/contracts';
import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadRequestsConfig } from './config.js';

await runService(
  'requests',
  () => loadRequestsConfig(),
  async (config, logger) => {
    const infra = await Infrastructure.open(
      'requests',
      config,
      {
        mongoDb: config.MONGO_DB,
        redis: true,
        // What it publishes and consumes, from the event catalogue in packages/contracts.
        kafkaTopics: kafkaTopicsOf('requests'),
      },
      logger,
    );
    return buildApp({ config, logger, infra });
  },
);
