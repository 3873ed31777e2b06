import { BaseConfig, KafkaConfig, MongoConfig, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

export const LeadsConfig = Type.Object({
  ...BaseConfig,
  ...MongoConfig,
  ...KafkaConfig,
  PORT: Type.Integer({ default: 4005, minimum: 1, maximum: 65535 }),
  MONGO_DB: Type.String({ default: 'homereport_leads' }),
});
export type LeadsConfig = Static<typeof LeadsConfig>;

export const loadLeadsConfig = (env?: Record<string, string | undefined>) => loadConfig(LeadsConfig, env);
