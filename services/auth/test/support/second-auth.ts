import { testEnv } from '../../../../test/support/env.js';
import { spawnServiceProcess } from '../../../../test/support/service-process.js';

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
  // Its port from the run's (so from TEST_PORT_OFFSET); no metrics port (spawnServiceProcess).
  const child = spawnServiceProcess('auth', {
    port,
    settings: {
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
