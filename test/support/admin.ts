import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../../infra/local/servers.mjs';
import { testEnv } from './env.js';

const run = promisify(execFile);

/** Runs an operator command (a TypeScript CLI of the repo) against the test run's database and Redis. */
export async function runOperatorCommand(
  script: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = testEnv();
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, MONGO_URL: env.mongoUrl, REDIS_URL: env.redisUrl },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Runs `create-admin` as an operator does. */
export const createAdmin = (...args: string[]) => runOperatorCommand('services/auth/src/cli/create-admin.ts', ...args);
