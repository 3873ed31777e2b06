import { fileURLToPath } from 'node:url';
import { BaseConfig, KafkaConfig, MongoConfig, RedisConfig, loadConfig } from '@homereport/kit';
import { type Static, Type } from '@sinclair/typebox';

/** The sample data set committed beside the service (sample/README.md says how it is made). */
export const BUNDLED_SAMPLE = fileURLToPath(new URL('../sample/analyses.json', import.meta.url));

/** The zipcodes database; shared by the service and the zip:import command. */
const ZipcodesDatabase = {
  MONGO_DB: Type.String({ default: 'homereport_zipcodes' }),
};

export const ZipcodesConfig = Type.Object({
  ...BaseConfig,
  ...MongoConfig,
  ...RedisConfig,
  ...KafkaConfig,
  ...ZipcodesDatabase,
  PORT: Type.Integer({ default: 4004, minimum: 1, maximum: 65535 }),
  ZIP_IMPORT_MAX_BYTES: Type.Integer({
    default: 16 * 1024 * 1024,
    minimum: 1024,
    description: 'Largest body POST /api/admin/zipcodes/import accepts; larger gets 413.',
  }),
  ZIP_LOAD_SAMPLE_WHEN_EMPTY: Type.Boolean({
    default: true,
    description: 'At start, load the sample analyses if the collection is empty.',
  }),
  ZIP_SAMPLE_FILE: Type.String({ default: BUNDLED_SAMPLE, description: 'The sample analyses (a JSON array).' }),
});
export type ZipcodesConfig = Static<typeof ZipcodesConfig>;

export const loadZipcodesConfig = (env?: Record<string, string | undefined>) => loadConfig(ZipcodesConfig, env);

/** What `npm run zip:import` needs: the database, and Redis to bump the list's generation. */
const ImportCommandConfig = Type.Object({
  ...MongoConfig,
  ...RedisConfig,
  ...ZipcodesDatabase,
});

export const loadImportCommandConfig = (env?: Record<string, string | undefined>) =>
  loadConfig(ImportCommandConfig, env);
