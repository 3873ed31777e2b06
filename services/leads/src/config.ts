import { BaseConfig, KafkaConfig, MongoConfig, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

export const LeadsConfig = Type.Object({
  ...BaseConfig,
  ...MongoConfig,
  ...KafkaConfig,
  PORT: Type.Integer({ default: 4005, minimum: 1, maximum: 65535 }),
  MONGO_DB: Type.String({ default: 'homereport_leads' }),
  WEBHOOK_BODY_LIMIT_BYTES: Type.Integer({
    default: 64 * 1024,
    minimum: 1024,
    maximum: 1024 * 1024,
    description: 'Largest inbound lead body; a Google lead form payload is a few kilobytes.',
  }),
  WEBHOOK_KEY_CACHE_SECONDS: Type.Integer({
    default: 2,
    minimum: 0,
    maximum: 60,
    description:
      'How long a replica remembers a known webhook key. A key switched off on another replica keeps working here for at most this long; 0 looks every key up.',
  }),
});
export type LeadsConfig = Static<typeof LeadsConfig>;

export const loadLeadsConfig = (env?: Record<string, string | undefined>) => loadConfig(LeadsConfig, env);
