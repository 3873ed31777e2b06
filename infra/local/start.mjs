// `npm start`: install what is missing, provision and start the local servers, build everything
// (`npm run build`: each workspace compiled to dist/, the web app) and run the compiled build with
// plain node, every service and the gateway with one combined log stream. Ctrl-C stops it all.
// `npm run dev` (--watch) runs the TypeScript sources through tsx watch instead, each process
// restarted when a file it loaded changes; only the web app is built.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
};

if (!existsSync(join(root, 'node_modules/.package-lock.json'))) {
  console.log('[start] installing npm dependencies');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}
const { cacheDir, provision, startInfra } = await import('./servers.mjs');
const { startStack } = await import('./stack.mjs');

const watch = process.argv.includes('--watch');
// The servers only: Toxiproxy, promtool, kustomize and the image's Node are for tests and benchmarks.
provision({ testTools: false });
if (process.env.SKIP_BUILD !== '1') {
  console.log(watch ? '[start] building the web app' : '[start] building (npm run build)');
  run('npm', watch ? ['run', 'build', '-w', 'web'] : ['run', 'build']);
}
const dataDir = process.env.LOCAL_DATA_DIR ?? join(cacheDir, 'data', 'dev');
const infra = await startInfra({ profile: 'dev', dataDir });
// Kept with the data: events waiting in Kafka from an earlier run were sealed with it.
const eventKeyFile = join(dataDir, 'event-secret-key');
if (!existsSync(eventKeyFile)) {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(eventKeyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
}
let stack;
const shutdown = async () => {
  console.log('\n[start] stopping');
  await stack?.stop();
  await infra.stop();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
try {
  stack = await startStack({
    profile: 'dev',
    runtime: watch ? 'watch' : 'compiled',
    pretty: process.env.LOG_FORMAT !== 'json',
    settings: {
      ...infra.settings,
      // A fresh secret per run: nothing to commit, and only processes started here know it.
      INTERNAL_SECRET: process.env.INTERNAL_SECRET ?? randomBytes(24).toString('hex'),
      EVENT_SECRET_KEY: process.env.EVENT_SECRET_KEY ?? readFileSync(eventKeyFile, 'utf8').trim(),
    },
  });
  console.log(
    `[start] HomeReport is running: ${stack.urls.join(' and ')}  (mail: ${infra.settings.MAILDEV_URL})  Ctrl-C stops everything`,
  );
} catch (err) {
  console.error(`[start] ${err.message}`);
  await infra.stop();
  process.exit(1);
}
