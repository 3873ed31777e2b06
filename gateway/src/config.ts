import { fileURLToPath } from 'node:url';
import { BaseConfig, RedisConfig, ServiceUrlsConfig, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

export const GatewayConfig = Type.Object({
  ...BaseConfig,
  ...RedisConfig,
  PORT: Type.Integer({ default: 8080, minimum: 1, maximum: 65535 }),
  ...ServiceUrlsConfig,
  WEB_DIST: Type.String({ default: fileURLToPath(new URL('../../web/dist', import.meta.url)) }),
  /** Comma-separated origins allowed to call /api from another site; empty keeps CORS closed. */
  CORS_ORIGINS: Type.String({ default: '' }),
  /** True behind a load balancer that sets x-forwarded-for; false when clients connect directly. */
  TRUST_PROXY: Type.Boolean({ default: false }),
  /** Requests per minute per client address across /api; 0 disables. */
  RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 600, minimum: 0 }),
  /** Calls of /api/health per minute per client address (each answer is cached for a moment anyway); 0 disables. */
  HEALTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 120, minimum: 0 }),
  /**
   * How long a resolved session is used without asking Redis again (session-cache.ts, decision
   * 012); an ended session is dropped as soon as its end is announced. 0 asks Redis every time.
   */
  SESSION_KEEP_MS: Type.Integer({ default: 5000, minimum: 0, maximum: 60_000 }),
  /** Largest declared body on any route without a limit of its own; larger is refused with 413 here. */
  BODY_LIMIT_BYTES: Type.Integer({ default: 1024 * 1024, minimum: 1024 }),
  /** Largest declared body of a report upload (four files of the files service's MAX_UPLOAD_BYTES, 50 MiB each). */
  UPLOAD_BODY_LIMIT_BYTES: Type.Integer({ default: 4 * 50 * 1024 * 1024 + 1024 * 1024, minimum: 1024 }),
  /** Largest declared body of a ZIP analyses import (the zipcodes service's ZIP_IMPORT_MAX_BYTES). */
  IMPORT_BODY_LIMIT_BYTES: Type.Integer({ default: 16 * 1024 * 1024, minimum: 1024 }),
});
export type GatewayConfig = Static<typeof GatewayConfig>;

export const loadGatewayConfig = (env?: Record<string, string | undefined>) => loadConfig(GatewayConfig, env);
