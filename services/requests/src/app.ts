import {
  type BackendDeps,
  type ServiceApp,
  createBackendApp,
  fileLinkKey,
  requireIndexes,
  signFileLink,
} from '@homereport/kit';
import type { RequestsConfig } from './config.js';
import { ActivityRepository } from './data/activity-repository.js';
import { INDEXES, collections, prepare } from './data/collections.js';
import { CoveredListGeneration } from './data/covered-generation.js';
import { CreditsRepository } from './data/credits-repository.js';
import { LedgerRepository } from './data/ledger-repository.js';
import { PropertiesRepository } from './data/properties-repository.js';
import { coverageAllowance } from './data/request-allowance.js';
import { RequestsRepository } from './data/requests-repository.js';
import { savedReportsStore } from './data/saved-reports.js';
import { SearchPostings } from './data/search-postings.js';
import { OpenedReportsRepository, SharesRepository } from './data/shares-repository.js';
import { StatsRepository } from './data/stats-repository.js';
import { UserDirectoryRepository } from './data/user-directory.js';
import { UserErasureRepository } from './data/user-erasure.js';
import { ZipcodesClient } from './data/zipcodes-client.js';
import { Reports } from './domain/reports.js';
import { Requests } from './domain/requests.js';
import { SavedReports } from './domain/saved-reports.js';
import { shareTokenKey } from './domain/share-token.js';
import { Shares } from './domain/shares.js';
import { accountDeletedHandlers } from './events/account-deleted.js';
import { CONSUMER_GROUP, requestHandlers } from './events/consumers.js';
import { OUTBOX_COLLECTIONS } from './events/published.js';
import { adminRoutes } from './routes/admin/index.js';
import { internalRoutes } from './routes/internal/index.js';
import { requestRoutes } from './routes/requests/index.js';
import { savedRoutes } from './routes/saved/index.js';
import { shareRoutes } from './routes/shares/index.js';
import { userRoutes } from './routes/users/index.js';

export type AppDeps = BackendDeps<RequestsConfig>;

export async function buildApp({ config, logger, infra }: AppDeps): Promise<ServiceApp> {
  const app = await createBackendApp({ name: 'requests', logger, internalSecret: config.INTERNAL_SECRET }, infra);

  const db = infra.db;
  const c = collections(db);
  // Built by the release's migrations (npm run migrate), never here: a start only checks.
  await requireIndexes(db, INDEXES);
  await prepare(c);
  const relay = infra.startOutboxRelay(OUTBOX_COLLECTIONS);

  const linkKey = fileLinkKey(config.FILE_LINK_SECRET, config.INTERNAL_SECRET);
  const signer = { sign: (objectKey: string) => signFileLink(linkKey, objectKey, config.FILE_LINK_TTL_SECONDS) };
  const store = new RequestsRepository(c, relay);
  const stats = new StatsRepository(c);
  const activity = new ActivityRepository(c);
  const ledger = new LedgerRepository(c, relay);
  const directory = new UserDirectoryRepository(c);
  const opened = new OpenedReportsRepository(c);
  const shareLinks = new SharesRepository(db);
  const savedReports = savedReportsStore(db);

  const search = new SearchPostings(c);
  const properties = new PropertiesRepository(c);
  const requests = new Requests({
    requests: store,
    properties,
    stats,
    activity,
    search,
    coveredSearch: new SearchPostings(c, c.coveredPostings),
    generation: new CoveredListGeneration(infra.redis),
    signer,
    onCacheError: (err) =>
      logger.warn({ err }, 'covered list generation not read or bumped (Redis); kept answers expire on their own'),
  });
  const reports = new Reports({
    requests: store,
    properties,
    activity,
    credits: new CreditsRepository(c),
    ledger,
    stats,
    signer,
    opened,
    zipContext: new ZipcodesClient(config.ZIPCODES_URL, config.INTERNAL_SECRET, config.ZIPCODES_TIMEOUT_MS),
  });

  infra.startConsumer(CONSUMER_GROUP, {
    ...requestHandlers({ requests, reports, store, ledger, directory, stats }),
    ...accountDeletedHandlers({
      erasure: new UserErasureRepository(c),
      stats,
      saved: savedReports,
      shares: shareLinks,
    }),
  });

  await app.register(requestRoutes, {
    requests,
    reports,
    redis: infra.redis,
    allowance: coverageAllowance({
      anonymous: config.ANON_REQUESTS_PER_HOUR,
      account: config.ACCOUNT_REQUESTS_PER_HOUR,
    }),
  });
  await app.register(userRoutes, { reports });
  const shares = new Shares({
    requests: store,
    properties,
    activity,
    opened,
    shares: shareLinks,
    signer,
    tokenKey: shareTokenKey(config.SHARE_LINK_SECRET, config.INTERNAL_SECRET),
    publicUrl: config.PUBLIC_URL,
    lifetimeDays: config.SHARE_LINK_DAYS,
  });
  await app.register(shareRoutes, { shares });
  await app.register(savedRoutes, { saved: new SavedReports({ saved: savedReports, requests: store, properties }) });
  await app.register(adminRoutes, { requests });
  await app.register(internalRoutes, { requests, reports });
  // In the background: the service answers meanwhile; an admin search finds older requests once done.
  void requests
    .indexEarlierRequests(search.progress)
    .catch((err) =>
      logger.warn({ err }, 'earlier requests not all filed for the admin search; the next start goes on'),
    );
  return app;
}
