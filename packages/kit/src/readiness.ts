import { connect } from 'node:net';
import { dependencyUp } from './metrics/registry.js';

export type Check = () => Promise<unknown>;

/** Named dependency checks; readiness is the conjunction of them, each bounded in time. */
export class Readiness {
  private readonly checks = new Map<string, Check>();
  /** When the last run ended (performance.now()), for `runIfOlderThan`. */
  private lastRunAt = Number.NEGATIVE_INFINITY;

  add(name: string, check: Check): void {
    this.checks.set(name, check);
  }

  /** Runs the checks unless a run ended less than `ageMs` ago. */
  async runIfOlderThan(ageMs: number): Promise<void> {
    if (performance.now() - this.lastRunAt >= ageMs) await this.run();
  }

  async run(timeoutMs = 1500): Promise<{ ready: boolean; checks: Record<string, 'up' | 'down'> }> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        try {
          await withTimeout(check(), timeoutMs, `${name} check timed out`);
          return [name, 'up'] as const;
        } catch {
          return [name, 'down'] as const;
        }
      }),
    );
    // The `dependency_up` gauge follows every check (probes run them every few seconds).
    for (const [name, state] of entries) dependencyUp.set({ dependency: name }, state === 'up' ? 1 : 0);
    this.lastRunAt = performance.now();
    return { ready: entries.every(([, s]) => s === 'up'), checks: Object.fromEntries(entries) };
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves when a TCP connection to host:port opens; used where a protocol ping would hang. */
export function tcpReachable(hostPort: string, timeoutMs = 1000): Promise<void> {
  const [host, port] = splitHostPort(hostPort);
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const done = (err?: Error) => {
      socket.destroy();
      err ? reject(err) : resolve();
    };
    socket.setTimeout(timeoutMs, () => done(new Error(`timeout connecting to ${hostPort}`)));
    socket.once('connect', () => done());
    socket.once('error', done);
  });
}

export function splitHostPort(hostPort: string): [string, number] {
  const i = hostPort.lastIndexOf(':');
  return [hostPort.slice(0, i), Number(hostPort.slice(i + 1))];
}
