import { Topics } from '@homereport/contracts';
import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadNotificationsConfig } from './config.js';

await runService('notifications', loadNotificationsConfig, async (config, logger) => {
  const infra = await Infrastructure.open(
    'notifications',
    config,
    {
      mongoDb: config.MONGO_DB,
      redis: true,
      kafkaTopics: [
        Topics.userRegistered,
        Topics.passwordResetRequested,
        Topics.contactMessageReceived,
        Topics.requestSubmitted,
        Topics.requestCovered,
      ],
    },
    logger,
  );
  return buildApp({ config, logger, infra });
});
