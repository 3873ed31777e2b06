// npm run migrate [-- --again] [-- --check] runs this for every service (packages/kit/bin/migrate.mjs);
// alone, it migrates the auth database (MONGO_DB, default homereport_auth).
import { migrateCommand, runCli } from '@homereport/kit';
import { MIGRATIONS } from '../migrations/index.js';

runCli('migrate', (argv) => migrateCommand(argv, 'homereport_auth', MIGRATIONS));
