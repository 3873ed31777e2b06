import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadAuthConfig } from './config.js';
import { PUBLISHED_TOPICS } from './events/published.js';

await runService(
  'auth',
  () => loadAuthConfig(),
  async (config, logger) => {
    const infra = await Infrastructure.open(
      'auth',
      config,
      // The topics come from the event catalogue in packages/contracts.
      { mongoDb: config.MONGO_DB, mongoose: true, redis: true, kafkaTopics: PUBLISHED_TOPICS },
      logger,
    );
    return buildApp({ config, logger, infra });
  },
);
