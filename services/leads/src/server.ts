import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadLeadsConfig } from './config.js';
import { PUBLISHED_TOPICS } from './events/published.js';

await runService(
  'leads',
  () => loadLeadsConfig(),
  async (config, logger) => {
    const infra = await Infrastructure.open(
      'leads',
      config,
      { mongoDb: config.MONGO_DB, kafkaTopics: PUBLISHED_TOPICS },
      logger,
    );
    return buildApp({ config, logger, infra });
  },
);
