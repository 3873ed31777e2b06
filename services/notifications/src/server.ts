import { kafkaTopicsOf } from '@homereport/contracts';
import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadNotificationsConfig } from './config.js';

await runService('notifications', loadNotificationsConfig, async (config, logger) => {
  const infra = await Infrastructure.open(
    'notifications',
    config,
    {
      mongoDb: config.MONGO_DB,
      mongoose: true,
      redis: true,
      // What it publishes and consumes, from the event catalogue in packages/contracts.
      kafkaTopics: kafkaTopicsOf('notifications'),
    },
    logger,
  );
  return buildApp({ config, logger, infra });
});
