// npm run backup -- --out <dir>      every service database, the report files, a manifest
// npm run restore -- --from <dir>    puts them back, into stopped services' databases
// Operator's procedure: docs/runbooks/backup-restore.md.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Type } from '@sinclair/typebox';
import { redactUrl, runCli } from '../cli.js';
import { MongoConfig, S3Config, ServiceUrlsConfig, loadConfig, splitList } from '../config.js';
import { createS3Client } from '../connections/s3.js';
import { BackupInputError, writeBackup } from './backup.js';
import { SERVICE_DATABASES } from './manifest.js';
import { readBackup, restoreBackup, servicesAnswering } from './restore.js';

const BackupConfig = Type.Object({
  MONGO_URL: MongoConfig.MONGO_URL,
  /** Comma-separated, when the services' MONGO_DB settings are not their defaults. */
  BACKUP_DATABASES: Type.String({ default: SERVICE_DATABASES.join(',') }),
  S3_ENDPOINT: S3Config.S3_ENDPOINT,
  S3_ACCESS_KEY: S3Config.S3_ACCESS_KEY,
  S3_SECRET_KEY: S3Config.S3_SECRET_KEY,
  S3_BUCKET: S3Config.S3_BUCKET,
  S3_REGION: S3Config.S3_REGION,
  // Where restore checks that no service answers: the gateway's own settings and defaults.
  ...ServiceUrlsConfig,
});

const USAGE = 'Usage: npm run backup -- --out <dir>\n       npm run restore -- --from <dir>';

async function connect(settings: { MONGO_URL: string }) {
  const { MongoClient } = await import('mongodb');
  // No operation timeout: a large collection takes as long as it takes. Server selection is
  // bounded, so an unreachable server is a sentence, not a hang.
  const client = new MongoClient(settings.MONGO_URL, { serverSelectionTimeoutMS: 5000 });
  await client.connect().catch((err: Error) => {
    throw new BackupInputError(`Could not reach MongoDB at MONGO_URL=${redactUrl(settings.MONGO_URL)}: ${err.message}`);
  });
  return client;
}

function s3Of(settings: ReturnType<typeof loadBackupConfig>) {
  const client = createS3Client({
    endpoint: settings.S3_ENDPOINT,
    accessKey: settings.S3_ACCESS_KEY,
    secretKey: settings.S3_SECRET_KEY,
    bucket: settings.S3_BUCKET,
    region: settings.S3_REGION,
    // Idle time, not total: a large file that keeps moving is fine.
    timeoutMs: 30_000,
  });
  return { client, bucket: settings.S3_BUCKET, region: settings.S3_REGION };
}

const loadBackupConfig = (env?: Record<string, string | undefined>) => loadConfig(BackupConfig, env);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { out: { type: 'string' }, from: { type: 'string' } },
    strict: true,
  });
  const settings = loadBackupConfig();
  const log = (line: string) => console.log(line);
  if (command === 'backup' && values.out && !values.from) {
    const out = resolve(values.out);
    const mongo = await connect(settings);
    try {
      const manifest = await writeBackup(
        {
          mongo,
          databases: splitList(settings.BACKUP_DATABASES),
          s3: s3Of(settings),
          mongoUrl: redactUrl(settings.MONGO_URL),
          log,
        },
        out,
      );
      const documents = Object.values(manifest.databases)
        .flatMap((d) => Object.values(d.collections))
        .reduce((a, b) => a + b, 0);
      log(`backup written to ${out}: ${documents} documents, ${manifest.files?.count ?? 0} files`);
      return 0;
    } finally {
      await mongo.close();
    }
  }
  if (command === 'restore' && values.from && !values.out) {
    const from = resolve(values.from);
    const manifest = await readBackup(from);
    const running = await servicesAnswering({
      auth: settings.AUTH_URL,
      requests: settings.REQUESTS_URL,
      files: settings.FILES_URL,
      zipcodes: settings.ZIPCODES_URL,
      leads: settings.LEADS_URL,
      notifications: settings.NOTIFICATIONS_URL,
    });
    if (running.length > 0) {
      console.error(
        `Refusing to restore while services answer: ${running.join(', ')}.\n` +
          'Stop every service first (they would write while the databases are replaced); see docs/runbooks/backup-restore.md.',
      );
      return 3;
    }
    const mongo = await connect(settings);
    try {
      log(`restoring ${from} (taken ${manifest.startedAt} from ${manifest.mongoUrl})`);
      await restoreBackup({ mongo, s3: s3Of(settings), log }, from, manifest);
      log('restore complete: start the services');
      return 0;
    } finally {
      await mongo.close();
    }
  }
  console.error(USAGE);
  return 2;
}

runCli(
  process.argv[2] === 'restore' ? 'restore' : 'backup',
  main,
  (err) => err instanceof BackupInputError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true,
);
