import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULT_WINDOWS_FILE } from '../log-check.js';
import { testEnv } from './env.js';

/**
 * Runs a test step that breaks something on purpose (stops Kafka, sends a poison event, kills a
 * process). The services may rightly log errors meanwhile; the end-of-run log check (see
 * test/log-check.ts) does not count the ERROR lines written during this window.
 */
export async function injectingFault<T>(what: string, step: () => Promise<T>): Promise<T> {
  const from = Date.now();
  try {
    return await step();
  } finally {
    appendFileSync(join(testEnv().dataDir, FAULT_WINDOWS_FILE), `${JSON.stringify({ what, from, to: Date.now() })}\n`);
  }
}

/** The local servers a test may pause (each runs as its own process group; see infra/local/servers.mjs). */
export type PausableServer = 'mongo' | 'redis' | 'kafka' | 'versitygw' | 'maildev';

/**
 * Pauses a local server as a hung one behaves: its process stops (SIGSTOP to its process group),
 * its sockets stay open and nothing answers. Returns the call that resumes it (SIGCONT). Only
 * the local servers are ours to pause: with containers or explicit URLs this throws.
 */
export function pauseServer(name: PausableServer): () => void {
  const env = testEnv();
  if (env.mode !== 'local') throw new Error(`pausing ${name} needs the local servers (this run uses ${env.mode})`);
  const pid = Number(readFileSync(join(env.dataDir, `${name}.pid`), 'utf8'));
  process.kill(-pid, 'SIGSTOP');
  return () => process.kill(-pid, 'SIGCONT');
}
