import { type Static, type TObject, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Thrown at boot when the environment does not describe a usable configuration. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the settings named by `schema` from the environment, converts them to their declared
 * types, fills defaults and fails fast naming every bad variable. The only place that reads
 * process.env, so a service's settings are visible in one schema.
 */
export function loadConfig<S extends TObject>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): Static<S> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  // Outside development a setting marked `production: true` has no default: a credential or a
  // server address left out must stop the process, not quietly point at a developer's machine.
  const production = env.NODE_ENV === 'production';
  const unset = production
    ? Object.entries(schema.properties).flatMap(([key, prop]) =>
        (prop as { production?: boolean }).production && raw[key] === undefined
          ? [`${key}: must be set when NODE_ENV=production (the default is for a developer's machine) (missing)`]
          : [],
      )
    : [];
  const converted = Value.Default(schema, Value.Convert(schema, raw));
  const problems = [...Value.Errors(schema, converted)].map((e) => {
    const name = e.path.replace(/^\//, '') || '(root)';
    // Named, never echoed: the value may be a secret (INTERNAL_SECRET, a URL with a password).
    const shown = raw[name] === undefined ? 'missing' : 'the value given is not shown';
    return `${name}: ${e.message} (${shown})`;
  });
  problems.push(...unset);
  if (problems.length > 0) throw new ConfigError(problems);
  return converted as Static<S>;
}

/** Settings every service shares. Defaults suit a developer's machine running `npm start`. */
export const BaseConfig = {
  HOST: Type.String({ default: '127.0.0.1' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  LOG_FORMAT: Type.Union([Type.Literal('json'), Type.Literal('pretty')], { default: 'json' }),
  /** Shared with the gateway; identity headers are trusted only when this accompanies them. */
  INTERNAL_SECRET: Type.String({ minLength: 16 }),
  PUBLIC_URL: Type.String({ default: 'http://localhost:8080', pattern: '^https?://', production: true }),
  /**
   * Port of the process's Prometheus metrics (`GET /metrics`); unset: its default in
   * METRICS_PORT_DEFAULTS; 0: no metrics at all (no port, nothing recorded).
   */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** An OpenTelemetry collector's OTLP/HTTP base URL: spans are exported there; unset, none are built. */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
};

/** Metrics ports by process (api.md, "Operations"); the stack moves them with its other ports. */
export const METRICS_PORT_DEFAULTS: Record<string, number> = {
  gateway: 9464,
  auth: 9465,
  requests: 9466,
  files: 9467,
  zipcodes: 9468,
  leads: 9469,
  notifications: 9470,
};

export const MongoConfig = {
  MONGO_URL: Type.String({ default: 'mongodb://127.0.0.1:27017/', pattern: '^mongodb(\\+srv)?://', production: true }),
  /** Deadline of one MongoDB operation (server selection, checkout and reply included). */
  MONGO_TIMEOUT_MS: Type.Integer({ default: 1500, minimum: 100 }),
};

export const KafkaConfig = {
  KAFKA_BROKERS: Type.String({ default: '127.0.0.1:9092', minLength: 1, production: true }),
  /** TLS to the brokers, with the system's certificate authorities (a managed cluster). */
  KAFKA_SSL: Type.Boolean({ default: false }),
  /** SASL of a managed cluster; unset, none. KAFKA_USERNAME and KAFKA_PASSWORD go with it. */
  KAFKA_SASL_MECHANISM: Type.Optional(
    Type.Union([Type.Literal('plain'), Type.Literal('scram-sha-256'), Type.Literal('scram-sha-512')]),
  ),
  KAFKA_USERNAME: Type.Optional(Type.String({ minLength: 1 })),
  KAFKA_PASSWORD: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Partitions of each topic a service creates: the most consumers of one group that get work
   * (the requests and leads autoscalers stay within it). Existing topics are left as they are.
   */
  KAFKA_PARTITIONS: Type.Integer({ default: 3, minimum: 1 }),
  /** Copies of each topic a service creates: 1 for a single broker, 3 on a cluster. */
  KAFKA_REPLICATION_FACTOR: Type.Integer({ default: 1, minimum: 1 }),
};

export const RedisConfig = {
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379', pattern: '^rediss?://', production: true }),
  /** Deadline of one Redis command. */
  REDIS_TIMEOUT_MS: Type.Integer({ default: 1000, minimum: 50 }),
};

const serviceUrl = (fallback: string) => Type.String({ default: fallback, pattern: '^https?://' });

/** Where each service listens: the gateway calls them there, and restore checks none answers. */
export const ServiceUrlsConfig = {
  AUTH_URL: serviceUrl('http://127.0.0.1:4001'),
  REQUESTS_URL: serviceUrl('http://127.0.0.1:4002'),
  FILES_URL: serviceUrl('http://127.0.0.1:4003'),
  ZIPCODES_URL: serviceUrl('http://127.0.0.1:4004'),
  LEADS_URL: serviceUrl('http://127.0.0.1:4005'),
  NOTIFICATIONS_URL: serviceUrl('http://127.0.0.1:4006'),
};

export const S3Config = {
  S3_ENDPOINT: Type.String({ default: 'http://127.0.0.1:9000', pattern: '^https?://', production: true }),
  S3_ACCESS_KEY: Type.String({ default: 'homereport-dev', production: true }),
  S3_SECRET_KEY: Type.String({ default: 'homereport-dev-secret', production: true }),
  S3_BUCKET: Type.String({ default: 'homereport-reports' }),
  S3_REGION: Type.String({ default: 'us-east-1' }),
  /** How long S3 may leave a call without a byte before it fails (503 to the caller). */
  S3_TIMEOUT_MS: Type.Integer({ default: 1500, minimum: 100 }),
};

export const SmtpConfig = {
  SMTP_URL: Type.String({ default: 'smtp://127.0.0.1:1025', pattern: '^smtps?://', production: true }),
  MAIL_FROM: Type.String({ default: 'HomeReport <no-reply@homereport.local>' }),
};

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
