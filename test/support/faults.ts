import { appendFileSync } from 'node:fs';
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
