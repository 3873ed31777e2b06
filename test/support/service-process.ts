import { type ChildProcess, spawn } from 'node:child_process';
import { repoRoot } from '../../infra/local/servers.mjs';

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
