import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout } from 'node:timers/promises';
import {
  type BackendDeps,
  type Logger,
  type ServiceApp,
  createBackendApp,
  namedError,
  requireIndexes,
} from '@homereport/kit';
import type { ZipcodesConfig } from './config.js';
import { AnalysesRepository } from './data/analyses-repository.js';
import { analysesCollection } from './data/analysis-model.js';
import { DetailCache } from './data/detail-cache.js';
import { ListIndex } from './data/list-index.js';
import { ZipAlertsRepository } from './data/zip-alerts.js';
import { ZipWatchesRepository } from './data/zip-watches.js';
import { NOT_STORED, importAnalyses } from './domain/import.js';
import type { AnalysisStore, ListInvalidation } from './domain/ports.js';
import { ZipWatches, alertWatchers } from './domain/zip-watches.js';
import { CONSUMER_GROUP, accountDeletedHandlers } from './events/account-deleted.js';
import { ZIP_ALERT_BATCHES } from './events/published.js';
import { MIGRATIONS } from './migrations/index.js';
import { zipWatchRoutes } from './routes/zip-watch/index.js';
import { zipcodeRoutes } from './routes/zipcodes/index.js';

export type AppDeps = BackendDeps<ZipcodesConfig>;

export async function buildApp({ config, logger, infra }: AppDeps): Promise<ServiceApp> {
  const app = await createBackendApp({ name: 'zipcodes', logger, internalSecret: config.INTERNAL_SECRET }, infra);

  const db = infra.db;
  // Built by the release's migrations (npm run migrate), never here: a start only checks.
  await requireIndexes(db, MIGRATIONS.indexes);
  const store = new AnalysesRepository(analysesCollection(db));
  const list = new ListIndex(infra.redis, () => store.listItems(), true);
  if (config.ZIP_LOAD_SAMPLE_WHEN_EMPTY) await loadSampleIfEmpty(store, list, config.ZIP_SAMPLE_FILE, logger);

  const details = new DetailCache(infra.redis);
  const relay = infra.startOutboxRelay([], { batches: ZIP_ALERT_BATCHES });
  const watchStore = new ZipWatchesRepository(db, ZIP_ALERT_BATCHES.collection);
  const alerts = new ZipAlertsRepository(db, relay);
  infra.startConsumer(CONSUMER_GROUP, accountDeletedHandlers(watchStore));

  await app.register(zipcodeRoutes, {
    store,
    list,
    details,
    importBodyLimit: config.ZIP_IMPORT_MAX_BYTES,
    alertWatchers: (changes) => alertWatchers(randomUUID(), changes, { watches: watchStore, alerts }),
  });
  await app.register(zipWatchRoutes, {
    watches: new ZipWatches({
      watches: watchStore,
      analyses: { find: (zip) => details.find(zip, (z) => store.find(z)) },
    }),
  });
  return app;
}

/** First start: an empty collection gets the sample analyses, so /zip has something to show. */
async function loadSampleIfEmpty(store: AnalysisStore, list: ListInvalidation, file: string, logger: Logger) {
  if (!(await store.isEmpty())) return;
  let pending = JSON.parse(await readFile(file, 'utf8')) as unknown[];
  let imported = 0;
  // A write that missed its deadline (a busy database at start) is tried again; a record the
  // rules refuse is not, and is an error to act on.
  for (let attempt = 1; pending.length > 0; attempt++) {
    // The report says only "not stored"; the database's own error is what an operator acts on.
    let writeError: unknown;
    const report = await importAnalyses(pending, store, list, {
      onWriteError: (_zip, err) => {
        writeError = err;
      },
    });
    imported += report.imported.length;
    const unstored = report.refused.filter((r) => r.errors.some((e) => e.startsWith(NOT_STORED)));
    const refused = report.refused.filter((r) => !unstored.includes(r));
    if (refused.length > 0) {
      const first = refused[0];
      const reason = `${first?.zipCode ?? `record ${first?.index}`}: ${first?.errors.join('; ')}`;
      logger.error(
        { file, refused, reason },
        `sample load: ${refused.length} analyses refused by the import rules (first: ${reason})`,
      );
    }
    if (unstored.length > 0 && attempt === SAMPLE_ATTEMPTS) {
      logger.error(
        { err: writeError, file, refused: unstored },
        `sample load: ${unstored.length} analyses not stored after ${SAMPLE_ATTEMPTS} attempts: ${namedError(writeError)}`,
      );
      break;
    }
    if (unstored.length > 0)
      logger.warn({ file, count: unstored.length, attempt }, 'sample analyses not stored yet; again');
    const batch = pending;
    pending = unstored.map((r) => batch[r.index]);
    if (pending.length > 0) await setTimeout(SAMPLE_RETRY_MS);
  }
  logger.info({ file, imported }, 'empty collection: sample analyses loaded');
}

const SAMPLE_ATTEMPTS = 4;
const SAMPLE_RETRY_MS = 1000;
