import { type Static, Type } from '@sinclair/typebox';
import { BaseConfig, KafkaConfig, MongoConfig, RedisConfig, SmtpConfig, loadConfig } from '@homereport/kit';

export const NotificationsConfig = Type.Object({
  ...BaseConfig, ...MongoConfig, ...RedisConfig, ...KafkaConfig, ...SmtpConfig,
  PORT: Type.Integer({ default: 4006, minimum: 1, maximum: 65535 }),
  MONGO_DB: Type.String({ default: 'homereport_notifications' }),
});
export type NotificationsConfig = Static<typeof NotificationsConfig>;

export const loadNotificationsConfig = (env?: Record<string, string | undefined>) => loadConfig(NotificationsConfig, env);
