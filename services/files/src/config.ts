import { BaseConfig, S3Config, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

export const FilesConfig = Type.Object({
  ...BaseConfig,
  ...S3Config,
  PORT: Type.Integer({ default: 4003, minimum: 1, maximum: 65535 }),
  /** Where the requests service listens (internal calls: does a request exist, record its files). */
  REQUESTS_URL: Type.String({ default: 'http://127.0.0.1:4002', pattern: '^https?://' }),
  MAX_UPLOAD_BYTES: Type.Integer({
    default: 50 * 1024 * 1024,
    minimum: 1024,
    description: 'Largest report file accepted (per file); a larger one is refused with 413.',
  }),
  /** Key of the signed download links; shared with the requests service. Empty: derived from INTERNAL_SECRET. */
  FILE_LINK_SECRET: Type.String({ default: '' }),
});
export type FilesConfig = Static<typeof FilesConfig>;

export const loadFilesConfig = (env?: Record<string, string | undefined>) => loadConfig(FilesConfig, env);
