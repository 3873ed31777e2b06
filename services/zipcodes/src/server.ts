import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadZipcodesConfig } from './config.js';

await runService(
  'zipcodes',
  () => loadZipcodesConfig(),
  async (config, logger) => {
    const infra = await Infrastructure.open('zipcodes', config, { mongoDb: config.MONGO_DB, redis: true }, logger);
    return buildApp({ config, logger, infra });
  },
);
