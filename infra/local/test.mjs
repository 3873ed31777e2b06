// `npm test`: install what is missing, then unit, integration and browser tests with vitest.
// The integration project's global setup provisions and starts the servers on test ports.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

if (!existsSync(join(root, 'node_modules/.package-lock.json')) && run('npm', ['ci', '--no-audit', '--no-fund']) !== 0)
  process.exit(1);
if (run('npm', ['run', 'build', '-w', 'web']) !== 0) process.exit(1);
process.exit(run('npx', ['vitest', 'run', ...process.argv.slice(2)]));
