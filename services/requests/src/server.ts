import { Topics } from '@homereport/contracts';
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
        kafkaTopics: [Topics.requestSubmitted, Topics.requestStatusChanged, Topics.requestCovered, Topics.reportViewed],
      },
      logger,
    );
    return buildApp({ config, logger, infra });
  },
);
