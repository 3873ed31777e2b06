import { Topics } from '@homereport/contracts';
import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadFilesConfig } from './config.js';

await runService(
  'files',
  () => loadFilesConfig(),
  async (config, logger) => {
    const infra = await Infrastructure.open(
      'files',
      config,
      { mongoDb: config.MONGO_DB, kafkaTopics: [Topics.reportFileStored], s3: true },
      logger,
    );
    return buildApp({ config, logger, infra });
  },
);
