import { Topics } from '@homereport/contracts';
import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadAuthConfig } from './config.js';

await runService('auth', () => loadAuthConfig(), async (config, logger) => {
  const infra = await Infrastructure.open('auth', config, { mongoDb: config.MONGO_DB, redis: true, kafkaTopics: [Topics.userRegistered, Topics.userVerified, Topics.passwordResetRequested] }, logger);
  return buildApp({ config, logger, infra });
});
