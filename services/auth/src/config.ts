import { type Static, Type } from '@sinclair/typebox';
import { BaseConfig, KafkaConfig, MongoConfig, RedisConfig, loadConfig } from '@homereport/kit';

export const AuthConfig = Type.Object({
  ...BaseConfig, ...MongoConfig, ...RedisConfig, ...KafkaConfig,
  PORT: Type.Integer({ default: 4001, minimum: 1, maximum: 65535 }),
  MONGO_DB: Type.String({ default: 'homereport_auth' }),
});
export type AuthConfig = Static<typeof AuthConfig>;

export const loadAuthConfig = (env?: Record<string, string | undefined>) => loadConfig(AuthConfig, env);
