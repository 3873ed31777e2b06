import { Infrastructure, runService } from '@homereport/kit';
import { buildApp } from './app.js';
import { loadFilesConfig } from './config.js';

await runService(
  'files',
  () => loadFilesConfig(),
  async (config, logger) => {
    // Objects only: which request holds which file is recorded by the requests service.
    const infra = await Infrastructure.open('files', config, { s3: true }, logger);
    return buildApp({ config, logger, infra });
  },
);
