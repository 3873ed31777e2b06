import { BaseConfig, KafkaConfig, MongoConfig, RedisConfig, ServiceUrlsConfig, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

export const RequestsConfig = Type.Object({
  ...BaseConfig,
  ...MongoConfig,
  ...RedisConfig,
  ...KafkaConfig,
  PORT: Type.Integer({ default: 4002, minimum: 1, maximum: 65535 }),
  MONGO_DB: Type.String({ default: 'homereport_requests' }),
  /** Where the zipcodes service listens: a report's view shows its ZIP code's analysis in context. */
  ZIPCODES_URL: ServiceUrlsConfig.ZIPCODES_URL,
  ZIPCODES_TIMEOUT_MS: Type.Integer({
    // A cold analysis (not in zipcodes' cache) took 0.9 s on a quiet test machine.
    default: 3000,
    minimum: 100,
    description:
      'Deadline of the call for a report’s ZIP analysis (connect and whole answer); past it the report opens without it.',
  }),
  /** Key of the signed download links; shared with the files service. Empty: derived from INTERNAL_SECRET. */
  FILE_LINK_SECRET: Type.String({ default: '' }),
  FILE_LINK_TTL_SECONDS: Type.Integer({
    default: 15 * 60,
    minimum: 10,
    description: 'How long a download link works.',
  }),
  /** Key of share links' tokens. Empty: derived from INTERNAL_SECRET (never the file links' key). */
  SHARE_LINK_SECRET: Type.String({ default: '' }),
  SHARE_LINK_DAYS: Type.Number({
    default: 7,
    exclusiveMinimum: 0,
    maximum: 365,
    description: 'How long a report share link works (days; fractions allowed).',
  }),
  ANON_REQUESTS_PER_HOUR: Type.Integer({
    default: 5,
    minimum: 1,
    description: 'Coverage requests a visitor who is not signed in may send per client address per hour.',
  }),
  ACCOUNT_REQUESTS_PER_HOUR: Type.Integer({
    default: 30,
    minimum: 1,
    description: 'Coverage requests a signed-in account may send per hour, from any address (429 above).',
  }),
});
export type RequestsConfig = Static<typeof RequestsConfig>;

export const loadRequestsConfig = (env?: Record<string, string | undefined>) => loadConfig(RequestsConfig, env);
