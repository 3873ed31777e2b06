import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './api.js';
import { testEnv } from './env.js';

/** A stack process's log file as it is now (each process writes its own, see stack.mjs). */
export const logOf = (name: string): string => readFileSync(join(testEnv().logDir, `${name}.log`), 'utf8');

/** The first line of a process's log holding every one of `parts`, waited for (logs are written in batches). */
export function logLineWith(name: string, parts: string[], what = 'the log line'): Promise<string> {
  return eventually(
    async () =>
      logOf(name)
        .split('\n')
        .find((line) => parts.every((part) => line.includes(part))),
    10_000,
    what,
  );
}
