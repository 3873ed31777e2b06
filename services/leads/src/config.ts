import { BaseConfig, ConfigError, KafkaConfig, MongoConfig, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';
import { checkKeyName } from './domain/webhook-keys.js';

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
  // Meta Lead Ads (api.md "Beyond the spec"). Empty META_APP_SECRET switches the Meta endpoints
  // off (they answer 503); with it set, the verify and page tokens must be set too.
  META_APP_SECRET: Type.String({
    default: '',
    maxLength: 200,
    description: 'The Meta app secret: the key of the X-Hub-Signature-256 HMAC. Empty: Meta Lead Ads is off.',
  }),
  META_VERIFY_TOKEN: Type.String({
    default: '',
    maxLength: 200,
    description: "The token typed into the Meta app's webhook settings, echoed back in the handshake.",
  }),
  META_PAGE_ACCESS_TOKEN: Type.String({
    default: '',
    maxLength: 1000,
    description: "A page access token with leads_retrieval, for reading each lead's fields from the Graph API.",
  }),
  META_GRAPH_URL: Type.String({
    default: 'https://graph.facebook.com/v21.0',
    pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$',
    description: 'The Graph API base URL with its version; a lead is read at <META_GRAPH_URL>/<leadgen_id>.',
  }),
  META_GRAPH_TIMEOUT_MS: Type.Integer({
    default: 5000,
    minimum: 100,
    maximum: 20_000,
    description:
      'Deadline of one lead read from the Graph API. Past it the delivery is answered 503 and Meta delivers it again.',
  }),
  META_WEBHOOK_KEY_NAME: Type.String({
    default: 'Meta Lead Ads',
    minLength: 1,
    maxLength: 100,
    description: 'The webhook key Meta leads are stored under (made when first needed): their source in the Leads tab.',
  }),
});
export type LeadsConfig = Static<typeof LeadsConfig>;

/** Meta Lead Ads is on when the app secret is set; then the other two secrets are required. */
export const metaEnabled = (config: LeadsConfig) => config.META_APP_SECRET !== '';

export function loadLeadsConfig(env?: Record<string, string | undefined>): LeadsConfig {
  const config = loadConfig(LeadsConfig, env);
  const problems: string[] = [];
  if (metaEnabled(config)) {
    for (const name of ['META_VERIFY_TOKEN', 'META_PAGE_ACCESS_TOKEN'] as const) {
      if (config[name] === '') problems.push(`${name}: must be set when META_APP_SECRET is set (missing)`);
    }
  }
  const keyName = checkKeyName(config.META_WEBHOOK_KEY_NAME);
  if (!keyName.ok) problems.push(`META_WEBHOOK_KEY_NAME: ${keyName.message}`);
  if (problems.length > 0) throw new ConfigError(problems);
  // Stored as a key name is (trimmed, normalised), so the admin's filter by key finds its leads.
  return { ...config, META_WEBHOOK_KEY_NAME: keyName.ok ? keyName.name : config.META_WEBHOOK_KEY_NAME };
}
