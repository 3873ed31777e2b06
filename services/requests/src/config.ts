import { BaseConfig, KafkaConfig, MongoConfig, RedisConfig, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

export const RequestsConfig = Type.Object({
  ...BaseConfig,
  ...MongoConfig,
  ...RedisConfig,
  ...KafkaConfig,
  PORT: Type.Integer({ default: 4002, minimum: 1, maximum: 65535 }),
  MONGO_DB: Type.String({ default: 'homereport_requests' }),
});
export type RequestsConfig = Static<typeof RequestsConfig>;

export const loadRequestsConfig = (env?: Record<string, string | undefined>) => loadConfig(RequestsConfig, env);
