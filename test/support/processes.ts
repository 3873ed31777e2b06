import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { repoRoot } from '../../infra/local/servers.mjs';

/** A local port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs a TypeScript entry (through tsx, from the repository's root) with this environment until it
 * exits, and returns its exit status, its JSON log lines and all it printed (for failure messages).
 */
export function runToExit(entry: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', entry], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: timeoutMs,
    env,
  });
  const lines = run.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: unknown; msg: string });
  return { status: run.status, lines, output: run.stdout + run.stderr };
}
