// npm run migrate [-- --again] [-- --check]
// Runs the requests database's one-off migrations (src/migrations/index.ts) not yet recorded as
// done; `--again` runs them all again (each is idempotent); `--check` only says whether any is
// pending (exit 3 if so), which `npm start` uses to run the migrations only when needed.
import { connectMongoDriver, databaseOf, loadConfig, redactUrl, runCli } from '@homereport/kit';
import { MongoConfig } from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import { pendingMigrations, runMigrations } from '../migrations/index.js';

const MigrateConfig = Type.Object({
  ...MongoConfig,
  MONGO_DB: Type.String({ default: 'homereport_requests' }),
});

const USAGE = 'Usage: npm run migrate [-- --again | --check]';

async function main(argv: string[]): Promise<number> {
  const flags = new Set(argv);
  if ([...flags].some((f) => f !== '--again' && f !== '--check')) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(MigrateConfig);
  // A one-off over every request: far longer than one call's deadline.
  const conn = await connectMongoDriver(config.MONGO_URL, config.MONGO_DB, { timeoutMs: 600_000 }).catch(
    (err: Error) => {
      throw new Error(`Could not reach MongoDB at MONGO_URL=${redactUrl(config.MONGO_URL)}: ${err.message}`);
    },
  );
  try {
    const db = databaseOf(conn);
    if (flags.has('--check')) {
      const pending = await pendingMigrations(db);
      console.log(pending.length === 0 ? 'No migration pending.' : `Pending: ${pending.join(', ')}`);
      return pending.length === 0 ? 0 : 3;
    }
    await runMigrations(db, { again: flags.has('--again'), log: (line) => console.log(line) });
    return 0;
  } finally {
    await conn.close();
  }
}

runCli('migrate', main);
