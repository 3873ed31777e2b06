import { type BackendDeps, type ServiceApp, createBackendApp, requireIndexes } from '@homereport/kit';
import { type LeadsConfig, metaEnabled } from './config.js';
import { INDEXES } from './data/indexes.js';
import { LeadErasureRepository } from './data/lead-erasure.js';
import { LeadsRepository } from './data/leads-repository.js';
import { MetaGraphClient } from './data/meta-graph.js';
import { WebhookKeysRepository } from './data/webhook-keys-repository.js';
import { Leads } from './domain/leads.js';
import { MetaLeadAds } from './domain/meta-lead-ads.js';
import { CONSUMER_GROUP, accountDeletedHandlers } from './events/account-deleted.js';
import { LEAD_EVENT_BATCHES, OUTBOX_COLLECTIONS } from './events/published.js';
import { adminRoutes } from './routes/admin/index.js';
import { webhookRoutes } from './routes/webhooks/index.js';
import { metaWebhookRoutes } from './routes/webhooks/meta.js';
import { WEBHOOK_SECURITY_SCHEMES } from './schemas/leads.js';

export type AppDeps = BackendDeps<LeadsConfig>;

/** How often the sweep finishes status changes whose request died half-way. */
const REPAIR_INTERVAL_MS = 5000;

export async function buildApp({ config, logger, infra }: AppDeps): Promise<ServiceApp> {
  const app = await createBackendApp(
    { name: 'leads', logger, internalSecret: config.INTERNAL_SECRET, securitySchemes: WEBHOOK_SECURITY_SCHEMES },
    infra,
  );

  const db = infra.db;
  // The kit's relay, with one marker per batch of arrivals (docs/decisions/004). Its per-document
  // markers only cover leads stored before batch markers (an older replica's outbox arrays).
  const events = infra.startOutboxRelay([...OUTBOX_COLLECTIONS], { batches: LEAD_EVENT_BATCHES });
  const keys = new WebhookKeysRepository(db);
  const store = new LeadsRepository(db, events);
  // Built by the release's migrations (npm run migrate), never here: a start only checks.
  await requireIndexes(db, INDEXES);
  await store.prepare();

  const leads = new Leads(keys, store, {
    publicUrl: config.PUBLIC_URL,
    keyCacheMs: config.WEBHOOK_KEY_CACHE_SECONDS * 1000,
  });

  infra.startConsumer(CONSUMER_GROUP, accountDeletedHandlers(new LeadErasureRepository(db)));

  const repair = setInterval(() => {
    store
      .repairStatusOps()
      .then((n) => n > 0 && logger.warn({ repaired: n }, 'finished lead status changes left half-done'))
      .catch((err) => logger.debug({ err }, 'lead status repair sweep failed; will retry'));
  }, REPAIR_INTERVAL_MS);
  repair.unref();
  app.addHook('onClose', async () => clearInterval(repair));

  await app.register(webhookRoutes, { leads, bodyLimit: config.WEBHOOK_BODY_LIMIT_BYTES });
  await app.register(metaWebhookRoutes, {
    meta: metaLeadAds(config, leads),
    bodyLimit: config.WEBHOOK_BODY_LIMIT_BYTES,
  });
  await app.register(adminRoutes, { leads });
  return app;
}

/** Meta Lead Ads, or null (its endpoints answer 503) when META_APP_SECRET is empty. */
function metaLeadAds(config: LeadsConfig, leads: Leads): MetaLeadAds | null {
  if (!metaEnabled(config)) return null;
  const graph = new MetaGraphClient({
    baseUrl: config.META_GRAPH_URL,
    accessToken: config.META_PAGE_ACCESS_TOKEN,
    timeoutMs: config.META_GRAPH_TIMEOUT_MS,
  });
  return new MetaLeadAds(leads, graph, {
    appSecret: config.META_APP_SECRET,
    verifyToken: config.META_VERIFY_TOKEN,
    keyName: config.META_WEBHOOK_KEY_NAME,
  });
}
