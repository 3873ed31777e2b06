import {
  BaseConfig,
  EventSecretKeyConfig,
  KafkaConfig,
  MongoConfig,
  RedisConfig,
  SmtpConfig,
  loadConfig,
} from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

const emailAddress = (fallback: string) => Type.String({ default: fallback, pattern: '^[^\\s@<>]+@[^\\s@<>]+$' });

export const NotificationsConfig = Type.Object({
  ...BaseConfig,
  ...MongoConfig,
  ...RedisConfig,
  ...KafkaConfig,
  ...SmtpConfig,
  ...EventSecretKeyConfig,
  PORT: Type.Integer({ default: 4006, minimum: 1, maximum: 65535 }),
  MONGO_DB: Type.String({ default: 'homereport_notifications' }),
  /** Where contact-form messages go (the staff inbox). */
  STAFF_EMAIL: emailAddress('staff@homereport.local'),
  /**
   * Reply-To of the emails users receive, so an answer reaches a person rather than MAIL_FROM's
   * no-reply box. The web build reads the same variable and has the same default, so the site
   * and the emails name one mailbox (web/tools/supportEmail.ts).
   */
  SUPPORT_EMAIL: emailAddress('support@homereport.example'),
  /** Contact messages accepted per client address per hour; 0 turns the limit off. */
  CONTACT_RATE_LIMIT_PER_HOUR: Type.Integer({ default: 5, minimum: 0 }),
  /** Contact messages accepted per sender email address per hour (each causes an acknowledgement to it); 0 turns it off. */
  CONTACT_RATE_LIMIT_PER_ADDRESS_PER_HOUR: Type.Integer({ default: 3, minimum: 0 }),
  /**
   * Request receipts one signed-in account gets one by one per clock hour; the further ones of
   * that hour are listed in one digest email after it (decision 027). 0 sends every one on its own.
   */
  RECEIPTS_PER_HOUR_BEFORE_DIGEST: Type.Integer({ default: 3, minimum: 0 }),
  /** Also email staff about test leads (Google's "send test data"); off, so wiring up an ad account stays quiet. */
  LEAD_ALERTS_FOR_TEST_LEADS: Type.Boolean({ default: false }),
});
export type NotificationsConfig = Static<typeof NotificationsConfig>;

export const loadNotificationsConfig = (env?: Record<string, string | undefined>) =>
  loadConfig(NotificationsConfig, env);
