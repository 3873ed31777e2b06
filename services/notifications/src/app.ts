import { type Infrastructure, type Logger, type ServiceApp, createServiceApp, requireIndexes } from '@homereport/kit';
import type { NotificationsConfig } from './config.js';
import { addressErasureRepository } from './data/address-erasure.js';
import { contactMessagesRepository } from './data/contact-messages.js';
import { INDEXES, createModels } from './data/models.js';
import { receiptWindowsRepository } from './data/receipt-windows.js';
import { sentEmailsRepository } from './data/sent-emails.js';
import type { Mailer } from './domain/ports.js';
import { accountDeletedHandlers } from './events/account-deleted.js';
import { CONSUMER_GROUP, URGENT_CONSUMER_GROUP, lanes, notificationHandlers } from './events/consumers.js';
import { ReceiptDigestSender } from './events/receipt-digests.js';
import { countedMailer } from './mail/counted.js';
import { createSmtpMailer } from './mail/transport.js';
import { contactRoutes } from './routes/contact/index.js';

export interface AppDeps {
  config: NotificationsConfig;
  logger: Logger;
  infra: Infrastructure;
  /** SMTP from the config unless given. */
  mailer?: Mailer;
}

/**
 * The service: POST /api/contact, the outbox relay that publishes contact-message-received,
 * and the consumers that turn events into emails (an urgent lane and a bulk one). Closing the app
 * stops the consumers and the relay, then the SMTP pool, then the connections.
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
  await infra.attach(app);

  // Built by the release's migrations (npm run migrate), never here: a start only checks.
  await requireIndexes(infra.db, INDEXES);
  const models = await createModels(infra.mongoose);
  const relay = infra.startOutboxRelay(['contact_messages']);
  const sent = sentEmailsRepository(models);
  const brand = { publicUrl: config.PUBLIC_URL, supportEmail: config.SUPPORT_EMAIL };
  const windows = receiptWindowsRepository(models);
  const { urgent, bulk } = lanes({
    ...notificationHandlers({
      eventSecretKey: config.EVENT_SECRET_KEY,
      mailer,
      sent,
      brand,
      staffEmail: config.STAFF_EMAIL,
      supportEmail: config.SUPPORT_EMAIL,
      leadAlerts: { includeTestLeads: config.LEAD_ALERTS_FOR_TEST_LEADS },
      receipts: { windows, oneByOnePerHour: config.RECEIPTS_PER_HOUR_BEFORE_DIGEST },
    }),
    ...accountDeletedHandlers(addressErasureRepository(models)),
  });
  // Two consumers, each with its own fetch loop: a burst of receipts never holds up a
  // verification link (decision 027). One set of claims, so each event is handled once.
  infra.startConsumer(CONSUMER_GROUP, bulk);
  infra.startConsumer(URGENT_CONSUMER_GROUP, urgent, { claimsGroup: CONSUMER_GROUP });
  const digests = new ReceiptDigestSender(
    { windows, mailer, sent, brand, supportEmail: config.SUPPORT_EMAIL },
    logger.child({ component: 'receipt-digests' }),
  );
  digests.start();
  // Registered after attach(): runs before it, so the SMTP pool is still open for a digest in flight.
  app.addHook('onClose', async () => digests.stop());

  await app.register(contactRoutes, {
    messages: contactMessagesRepository(models, relay),
    redis: infra.redis,
    limitPerHour: config.CONTACT_RATE_LIMIT_PER_HOUR,
    limitPerAddressPerHour: config.CONTACT_RATE_LIMIT_PER_ADDRESS_PER_HOUR,
  });
  return app;
}
