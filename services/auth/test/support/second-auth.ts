import { type ChildProcess, spawn } from 'node:child_process';
import { repoRoot } from '../../../../infra/local/servers.mjs';
import { testEnv } from '../../../../test/support/env.js';

/**
 * A second auth service beside the stack's, with settings of its own (a shortened admin idle
 * limit, ADMIN_MFA_REQUIRED). It shares the stack's database and Redis, so the stack's gateway
 * resolves the sessions it makes. `offset` keeps two of them apart.
 */
export async function startSecondAuth(
  settings: Record<string, string>,
  offset: number,
): Promise<{ url: string; call: (path: string, body: unknown) => Promise<Response>; stop: () => void }> {
  const env = testEnv();
  const port = (env.servicePorts.auth ?? 24001) + offset;
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'services/auth/src/server.ts'], {
    cwd: repoRoot,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      MONGO_URL: env.mongoUrl,
      REDIS_URL: env.redisUrl,
      KAFKA_BROKERS: env.kafkaBrokers,
      INTERNAL_SECRET: env.internalSecret,
      EVENT_SECRET_KEY: env.eventSecretKey,
      LOG_LEVEL: 'warn',
      ...settings,
    },
  });
  for (;;) {
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null) throw new Error(`the second auth service exited (${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  /** A POST as the gateway makes it: with the internal secret. */
  const call = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-secret': env.internalSecret },
      body: JSON.stringify(body),
    });
  return { url, call, stop: () => child.kill('SIGTERM') };
}
