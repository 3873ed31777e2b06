import { BaseConfig, MongoConfig, RedisConfig, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

export const ZipcodesConfig = Type.Object({
  ...BaseConfig,
  ...MongoConfig,
  ...RedisConfig,
  PORT: Type.Integer({ default: 4004, minimum: 1, maximum: 65535 }),
  MONGO_DB: Type.String({ default: 'homereport_zipcodes' }),
});
export type ZipcodesConfig = Static<typeof ZipcodesConfig>;

export const loadZipcodesConfig = (env?: Record<string, string | undefined>) => loadConfig(ZipcodesConfig, env);
