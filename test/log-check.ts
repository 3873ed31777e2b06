// The end-of-run check on what the services logged (run by the global setup's teardown): no
// secret token a test used, no ERROR line except while a test was injecting a fault, and no
// ERROR or FATAL line at all, fault or not, that fails to name its error and the operation.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where fault-injecting tests note when they ran (test/support/faults.ts); in the run's data dir. */
export const FAULT_WINDOWS_FILE = 'fault-windows.jsonl';

/** After a fault ends, the services may take this long to notice recovery (reconnects, retries). */
const AFTERMATH_MS = 30_000;

interface Window {
  what: string;
  from: number;
  to: number;
}

/** Every verification and reset token that went out by email in this run (all of them end up in maildev). */
export async function tokensSent(maildevUrl: string): Promise<string[]> {
  if (!maildevUrl) return [];
  const res = await fetch(`${maildevUrl}/email`);
  if (!res.ok) throw new Error(`maildev answered ${res.status}`);
  const emails = (await res.json()) as { html?: string; text?: string }[];
  const tokens = new Set<string>();
  for (const email of emails) {
    for (const match of `${email.text ?? ''} ${email.html ?? ''}`.matchAll(/[?&]token=([\w-]{16,})/g)) {
      if (match[1]) tokens.add(match[1]);
    }
  }
  return [...tokens];
}

/** The problems found in the services' logs, one line of explanation each; empty when clean. */
export function checkLogs(logDir: string, dataDir: string, tokens: string[]): string[] {
  if (!existsSync(logDir)) return [];
  const windowsFile = join(dataDir, FAULT_WINDOWS_FILE);
  const windows: Window[] = existsSync(windowsFile)
    ? readFileSync(windowsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Window)
    : [];
  const duringFault = (time: number) => windows.find((w) => time >= w.from && time <= w.to + AFTERMATH_MS);
  const problems: string[] = [];
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log'))) {
    const lines = readFileSync(join(logDir, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (!line) return;
      const where = `${file}:${index + 1}`;
      const token = tokens.find((t) => line.includes(t));
      if (token) problems.push(`${where} holds a token sent by email (${token.slice(0, 6)}…): ${line.slice(0, 300)}`);
      if (/[?&]token=[\w-]{16,}/.test(line)) problems.push(`${where} holds a token in a URL: ${line.slice(0, 300)}`);
      let entry: LogEntry;
      try {
        entry = JSON.parse(line);
      } catch {
        // A line that is not JSON is a crash trace on stderr: always worth a look.
        if (/error/i.test(line)) problems.push(`${where} is not a log entry: ${line.slice(0, 300)}`);
        return;
      }
      if (levelNumber(entry.level) < 50) return;
      const unnamed = unnamedError(entry);
      if (unnamed) problems.push(`${where} ERROR line ${unnamed}: ${line.slice(0, 400)}`);
      if (!duringFault(entry.time ?? 0)) {
        problems.push(`${where} ERROR outside a fault-injecting test: ${line.slice(0, 400)}`);
      }
    });
  }
  return problems;
}

/** pino's numbers of its level words: the processes log the word (kit logger.ts), pino's tests the number. */
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const levelNumber = (level: number | string | undefined) =>
  typeof level === 'string' ? (LEVELS[level] ?? 0) : (level ?? 0);

interface LogEntry {
  level?: number | string;
  time?: number;
  msg?: unknown;
  err?: unknown;
  error?: unknown;
  reason?: unknown;
}

/**
 * Words that name no operation: an operator can do nothing with a line made of only these and the
 * error's own text ("request failed", "Error: boom", "an error occurred: ...").
 */
const SAYS_NOTHING = new Set(
  'a an the request requests failed failure fails error errors exception occurred unexpected unexpectedly something went wrong unhandled uncaught internal fatal is was has had with when while on in of at'.split(
    ' ',
  ),
);

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * Why an ERROR or FATAL line (level >= 50) does not name what failed and why, or null when it
 * does. It names the error with an `err` that has a type and a message (what pino writes for an
 * Error), or with an explicit `error` or `reason` (a string, or an object with a message); and its
 * message names the operation: words beyond the error's own text and the ones that say nothing.
 */
export function unnamedError(entry: LogEntry): string | null {
  const err = entry.err as { type?: unknown; message?: unknown } | undefined;
  const errorText = text(entry.error) || text((entry.error as { message?: unknown } | undefined)?.message);
  const causes = [
    ...(text(err?.type) && text(err?.message) ? [text(err?.type), text(err?.message)] : []),
    errorText,
    text(entry.reason),
  ].filter(Boolean);
  if (causes.length === 0) return 'names no error (an `err` with type and message, or an `error` or `reason` field)';
  let rest = text(entry.msg);
  // Longest first, so a type inside its own message ("TypeError" in "TypeError: x") goes with it.
  for (const cause of [...causes].sort((a, b) => b.length - a.length)) rest = rest.split(cause).join(' ');
  const words = rest.split(/[^\p{L}\p{N}_/:.-]+/u).filter((w) => /\p{L}/u.test(w));
  if (!words.some((w) => !SAYS_NOTHING.has(w.toLowerCase().replace(/[:.]+$/, ''))))
    return 'names no operation in its message (what was being done, beside the error itself)';
  return null;
}
