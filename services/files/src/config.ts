import { BaseConfig, KafkaConfig, MongoConfig, S3Config, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

export const FilesConfig = Type.Object({
  ...BaseConfig,
  ...MongoConfig,
  ...KafkaConfig,
  ...S3Config,
  PORT: Type.Integer({ default: 4003, minimum: 1, maximum: 65535 }),
  MONGO_DB: Type.String({ default: 'homereport_files' }),
});
export type FilesConfig = Static<typeof FilesConfig>;

export const loadFilesConfig = (env?: Record<string, string | undefined>) => loadConfig(FilesConfig, env);
