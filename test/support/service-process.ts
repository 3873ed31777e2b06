import { type ChildProcess, spawn } from 'node:child_process';
import { repoRoot } from '../../infra/local/servers.mjs';
import { testEnv } from './env.js';

export interface ServiceProcessOptions {
  /** Its HTTP port: one the test derived from its run's offset (TEST_PORT_OFFSET). */
  port: number;
  /**
   * Its Prometheus port, also from the run's offset; 0 (the default): no metrics port at all. Never
   * left unset: the kit would then take the process's fixed default (9465 for auth), which the app
   * of `npm start` holds on the same machine, and the process would exit.
   */
  metricsPort?: number;
  /** Its settings; nothing of the test runner's own environment is passed on but PATH. */
  settings: Record<string, string>;
}

/**
 * Starts one service (its TypeScript sources, through tsx) beside the run's stack, as a test needs
 * it with settings of its own. Every port it opens is one the test chose: the one way tests start
 * a service outside the stack (service-process.test.ts keeps it so).
 */
export function spawnServiceProcess(service: string, options: ServiceProcessOptions): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/server.ts`], {
    cwd: repoRoot,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      ...options.settings,
      PORT: String(options.port),
      METRICS_PORT: String(options.metricsPort ?? 0),
    },
  });
}

/**
 * A second `service` beside the stack's: the stack's database, Redis, Kafka and secrets, with
 * `settings` laid over them; its port is the stack's one for that service plus `offset` (so it
 * follows TEST_PORT_OFFSET, and two of them stay apart). Resolves once it answers ready.
 */
export async function startServiceBeside(
  service: string,
  offset: number,
  settings: Record<string, string>,
): Promise<{ url: string; stop: () => void }> {
  const env = testEnv();
  const stackPort = env.servicePorts[service];
  if (stackPort === undefined) throw new Error(`the stack runs no ${service} service`);
  const port = stackPort + offset;
  const child = spawnServiceProcess(service, {
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
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null) throw new Error(`the second ${service} service exited (${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, stop: () => child.kill('SIGTERM') };
}
