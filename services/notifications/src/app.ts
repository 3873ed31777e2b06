import { type Infrastructure, type Logger, type ServiceApp, createServiceApp, requireIndexes } from '@homereport/kit';
import type { NotificationsConfig } from './config.js';
import { addressErasureRepository } from './data/address-erasure.js';
import { contactMessagesRepository } from './data/contact-messages.js';
import { INDEXES, createModels } from './data/models.js';
import { redisRateLimiter } from './data/rate-limit.js';
import { sentEmailsRepository } from './data/sent-emails.js';
import type { Mailer } from './domain/ports.js';
import { accountDeletedHandlers } from './events/account-deleted.js';
import { CONSUMER_GROUP, notificationHandlers } from './events/consumers.js';
import { countedMailer } from './mail/counted.js';
import { createSmtpMailer } from './mail/transport.js';
import { registerContactRoutes } from './routes/contact/index.js';

export interface AppDeps {
  config: NotificationsConfig;
  logger: Logger;
  infra: Infrastructure;
  /** SMTP from the config unless given. */
  mailer?: Mailer;
}

/**
 * The service: POST /api/contact, the outbox relay that publishes contact-message-received,
 * and the consumer that turns events into emails. Closing the app stops the consumer and the
 * relay, then the SMTP pool, then the connections.
 */
export async function buildApp({ config, logger, infra, mailer: givenMailer }: AppDeps): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'notifications',
    logger,
    internalSecret: config.INTERNAL_SECRET,
    trustProxy: true,
  });
  const mailer = countedMailer(givenMailer ?? createSmtpMailer(config));
  // onClose hooks run last-registered first: this one runs after attach()'s, once the consumer stopped.
  app.addHook('onClose', async () => mailer.close());
  infra.attach(app);

  // Built by the release's migrations (npm run migrate), never here: a start only checks.
  await requireIndexes(infra.db, INDEXES);
  const models = await createModels(infra.mongoose);
  const relay = infra.startOutboxRelay(['contact_messages']);
  infra.startConsumer(CONSUMER_GROUP, {
    ...notificationHandlers({
      eventSecretKey: config.EVENT_SECRET_KEY,
      mailer,
      sent: sentEmailsRepository(models),
      brand: { publicUrl: config.PUBLIC_URL, supportEmail: config.SUPPORT_EMAIL },
      staffEmail: config.STAFF_EMAIL,
      supportEmail: config.SUPPORT_EMAIL,
      leadAlerts: { includeTestLeads: config.LEAD_ALERTS_FOR_TEST_LEADS },
    }),
    ...accountDeletedHandlers(addressErasureRepository(models)),
  });

  registerContactRoutes(app, {
    messages: contactMessagesRepository(models, relay),
    limiter: redisRateLimiter(infra.redis, (err) =>
      logger.warn({ err }, 'contact rate limit unavailable; message let through'),
    ),
    limitPerHour: config.CONTACT_RATE_LIMIT_PER_HOUR,
    limitPerAddressPerHour: config.CONTACT_RATE_LIMIT_PER_ADDRESS_PER_HOUR,
  });
  return app;
}
