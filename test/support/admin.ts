import { execFileSync } from 'node:child_process';
import { repoRoot } from '../../infra/local/servers.mjs';
import { testEnv } from './env.js';

/** Creates (or promotes) an admin the way an operator does: with `npm run create-admin`. */
export function createAdmin(email: string, password: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'services/auth/src/cli/create-admin.ts', email, password], {
    cwd: repoRoot,
    env: { ...process.env, MONGO_URL: testEnv().mongoUrl, REDIS_URL: testEnv().redisUrl },
    encoding: 'utf8',
  });
}
