import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadRequestsConfig } from './config.js';
import { CONSUMED_TOPICS, PUBLISHED_TOPICS } from './events/published.js';

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
        kafkaTopics: [...new Set([...PUBLISHED_TOPICS, ...CONSUMED_TOPICS])],
      },
      logger,
    );
    return buildApp({ config, logger, infra });
  },
);
