import { kafkaTopicsOf } from '@homereport/contracts';
import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadLeadsConfig } from './config.js';

await runService(
  'leads',
  () => loadLeadsConfig(),
  async (config, logger) => {
    const infra = await Infrastructure.open(
      'leads',
      config,
      { mongoDb: config.MONGO_DB, kafkaTopics: kafkaTopicsOf('leads') },
      logger,
    );
    return buildApp({ config, logger, infra });
  },
);
