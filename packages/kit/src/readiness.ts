import { connect } from 'node:net';
import { dependencyUp } from './metrics/registry.js';

export type Check = () => Promise<unknown>;

export type ReadinessStatus = 'ready' | 'degraded' | 'not ready';

/**
 * Named dependency checks, each bounded in time. The process is ready while its essential ones
 * answer; a degradable one down (Redis, Kafka: limits and caches fall back to the process, the
 * outbox keeps events) makes it `degraded`, still ready. An orchestrator takes a pod that is not
 * ready out of its Service: failing readiness on a dependency every replica shares would take
 * every replica out at once and turn a degraded site into no site.
 */
export class Readiness {
  private readonly checks = new Map<string, { check: Check; essential: boolean }>();
  /** When the last run ended (performance.now()), for `runIfOlderThan`. */
  private lastRunAt = Number.NEGATIVE_INFINITY;

  add(name: string, check: Check, { essential = true }: { essential?: boolean } = {}): void {
    this.checks.set(name, { check, essential });
  }

  /** Runs the checks unless a run ended less than `ageMs` ago. */
  async runIfOlderThan(ageMs: number): Promise<void> {
    if (performance.now() - this.lastRunAt >= ageMs) await this.run();
  }

  async run(
    timeoutMs = 1500,
  ): Promise<{ ready: boolean; status: ReadinessStatus; checks: Record<string, 'up' | 'down'> }> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, { check, essential }]) => {
        try {
          await withTimeout(check(), timeoutMs, `${name} check timed out`);
          return { name, essential, state: 'up' as const };
        } catch {
          return { name, essential, state: 'down' as const };
        }
      }),
    );
    // The `dependency_up` gauge follows every check (probes run them every few seconds).
    for (const { name, state } of entries) dependencyUp.set({ dependency: name }, state === 'up' ? 1 : 0);
    this.lastRunAt = performance.now();
    const down = entries.filter((e) => e.state === 'down');
    const ready = !down.some((e) => e.essential);
    return {
      ready,
      status: !ready ? 'not ready' : down.length > 0 ? 'degraded' : 'ready',
      checks: Object.fromEntries(entries.map((e) => [e.name, e.state])),
    };
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
