import { readFile } from 'node:fs/promises';
import { type Infrastructure, type Logger, type ServiceApp, createServiceApp } from '@homereport/kit';
import type { ZipcodesConfig } from './config.js';
import { AnalysesRepository } from './data/analyses-repository.js';
import { analysisModel } from './data/analysis-model.js';
import { DetailCache } from './data/detail-cache.js';
import { ListCache } from './data/list-cache.js';
import { importAnalyses } from './domain/import.js';
import type { AnalysisStore, ListInvalidation } from './domain/ports.js';
import { registerZipcodeRoutes } from './routes/zipcodes/index.js';

export interface AppDeps {
  config: ZipcodesConfig;
  logger: Logger;
  infra: Infrastructure;
}

export async function buildApp({ config, logger, infra }: AppDeps): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'zipcodes',
    logger,
    internalSecret: config.INTERNAL_SECRET,
    trustProxy: true,
  });
  infra.attach(app);

  const store = new AnalysesRepository(analysisModel(infra.mongo));
  const list = new ListCache(infra.redis, () => store.listItems(), config.ZIP_LIST_CACHE_TTL_SECONDS, true);
  if (config.ZIP_LOAD_SAMPLE_WHEN_EMPTY) await loadSampleIfEmpty(store, list, config.ZIP_SAMPLE_FILE, logger);

  const details = new DetailCache(infra.redis);
  registerZipcodeRoutes(app, { store, list, details, importBodyLimit: config.ZIP_IMPORT_MAX_BYTES });
  return app;
}

/** First start: an empty collection gets the sample analyses, so /zip has something to show. */
async function loadSampleIfEmpty(store: AnalysisStore, list: ListInvalidation, file: string, logger: Logger) {
  if (!(await store.isEmpty())) return;
  const records = JSON.parse(await readFile(file, 'utf8')) as unknown[];
  const report = await importAnalyses(records, store, list);
  if (report.refused.length > 0) logger.error({ file, refused: report.refused }, 'sample analyses refused');
  logger.info({ file, imported: report.imported.length }, 'empty collection: sample analyses loaded');
}
