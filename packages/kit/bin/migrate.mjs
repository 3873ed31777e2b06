// `npm run migrate [-- --again | --check] [service...]`: every service's database migrations
// (their indexes, then their one-off steps; packages/kit/src/migrations.ts, decision 028), each
// service's own command (services/<name>/src/cli/migrate.ts) against its own database. Run once
// per release before or while its pods start: by the Kubernetes Job `migrate`, by `npm start` and
// by the test stack (infra/local/stack.mjs). Plain JavaScript, so the image runs it as it is.
//
// Under `--conditions=homereport-dist` (the image's NODE_OPTIONS, the compiled local stack) it
// runs the compiled commands one after another, each with the heap of the container's limit;
// otherwise the TypeScript sources through tsx, side by side (each its own database).
// Exit: 0 done (or nothing pending with --check), 3 something pending (--check), else 1 or 2.
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { heapFlags } from './heap.mjs';

/** The services with a database (the backup's too: packages/kit/src/backup/manifest.ts). */
export const MIGRATED_SERVICES = ['auth', 'requests', 'zipcodes', 'leads', 'notifications'];
const DIST_CONDITION = '--conditions=homereport-dist';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Whether this process resolves the workspaces to their compiled dist/. */
export function compiledRuntime(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  return [...execArgv, ...nodeOptions.split(/\s+/)].includes(DIST_CONDITION);
}

function runOne(service, flags, compiled) {
  const args = compiled
    ? [...heapFlags(), DIST_CONDITION, `services/${service}/dist/cli/migrate.js`, ...flags]
    : ['--import', 'tsx', `services/${service}/src/cli/migrate.ts`, ...flags];
  // Each service's own default database: a MONGO_DB meant for one service would send all of them
  // to it (one service alone: node services/<name>/.../cli/migrate with MONGO_DB).
  const { MONGO_DB: _ignored, ...env } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
    child.once('error', (err) => {
      console.error(`migrate ${service}: ${err.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

export async function migrateAll(argv) {
  const flags = argv.filter((a) => a.startsWith('--'));
  const named = argv.filter((a) => !a.startsWith('--'));
  const unknown = named.filter((s) => !MIGRATED_SERVICES.includes(s));
  if (unknown.length > 0) {
    console.error(`No database to migrate for ${unknown.join(', ')} (services: ${MIGRATED_SERVICES.join(', ')})`);
    return 2;
  }
  const services = named.length > 0 ? named : MIGRATED_SERVICES;
  const compiled = compiledRuntime();
  let codes;
  if (compiled) {
    codes = [];
    for (const service of services) codes.push(await runOne(service, flags, true));
  } else codes = await Promise.all(services.map((service) => runOne(service, flags, false)));
  const failed = codes.find((c) => c !== 0 && c !== 3);
  if (failed !== undefined) return failed;
  return codes.includes(3) ? 3 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exit(await migrateAll(process.argv.slice(2)));
}
