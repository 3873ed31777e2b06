import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../../infra/local/servers.mjs';
import { testEnv } from './env.js';

const run = promisify(execFile);

/** Runs an operator command (a TypeScript CLI of the repo) against the test run's database and Redis. */
export const runOperatorCommand = (script: string, ...args: string[]) => runWithInput(script, args, '');

/** As runOperatorCommand, with `input` written to its standard input (how a script hands over a password). */
export async function runWithInput(
  script: string,
  args: string[],
  input: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = testEnv();
  const running = run(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, MONGO_URL: env.mongoUrl, REDIS_URL: env.redisUrl },
    timeout: 60_000,
  });
  running.child.stdin?.end(input);
  try {
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * Runs `create-admin` as an operator's script does: the email as its argument, the password on
 * standard input (never on the command line). Without a password, standard input is empty.
 */
export const createAdmin = (email?: string, password?: string) =>
  runWithInput(
    'services/auth/src/cli/create-admin.ts',
    email === undefined ? [] : [email],
    password === undefined ? '' : `${password}\n`,
  );
