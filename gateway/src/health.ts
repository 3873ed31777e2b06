import type { ServiceName } from './routes.js';

type UpDown = 'up' | 'down';

export interface HealthAnswer {
  ok: boolean;
  body: {
    status: 'ok' | 'degraded';
    services: Record<ServiceName, UpDown>;
    /** Each service's own dependencies as its readiness reported them (absent when it did not answer). */
    dependencies: Partial<Record<ServiceName, Record<string, UpDown>>>;
  };
}

/** Asks every service's readiness endpoint at once; a service that does not answer in time is down. */
export async function servicesHealth(targets: Record<ServiceName, string>, timeoutMs = 2500): Promise<HealthAnswer> {
  const entries = await Promise.all(
    Object.entries(targets).map(async ([name, base]) => {
      try {
        const res = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(timeoutMs) });
        const body = (await res.json().catch(() => null)) as { checks?: Record<string, UpDown> } | null;
        return { name, state: (res.ok ? 'up' : 'down') as UpDown, checks: body?.checks };
      } catch {
        return { name, state: 'down' as UpDown, checks: undefined };
      }
    }),
  );
  const services = Object.fromEntries(entries.map((e) => [e.name, e.state])) as Record<ServiceName, UpDown>;
  const dependencies = Object.fromEntries(entries.flatMap((e) => (e.checks ? [[e.name, e.checks]] : [])));
  // A service is up while it is ready; the answer is ok only with every dependency up too, so a
  // degraded service (ready, a degradable dependency down) still makes it 503 and names it.
  const ok = entries.every((e) => e.state === 'up' && Object.values(e.checks ?? {}).every((c) => c === 'up'));
  return { ok, body: { status: ok ? 'ok' : 'degraded', services, dependencies } };
}

/**
 * The health answer, asked of the services at most once per `ttlMs` however many callers there
 * are: callers in between get the last answer, and callers while a check runs share it. Each
 * check fans out to every service and each of their dependencies, so it is not done per call.
 */
export function cachedHealth(
  check: () => Promise<HealthAnswer>,
  ttlMs = 1500,
  now: () => number = Date.now,
): () => Promise<HealthAnswer> {
  let last: { at: number; answer: HealthAnswer } | null = null;
  let running: Promise<HealthAnswer> | null = null;
  return async () => {
    if (last && now() - last.at < ttlMs) return last.answer;
    running ??= check()
      .then((answer) => {
        last = { at: now(), answer };
        return answer;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
}
