import type { ServiceName } from './routes.js';

/** Asks every service's readiness endpoint at once; a service that does not answer in time is down. */
export async function servicesHealth(targets: Record<ServiceName, string>, timeoutMs = 2500) {
  const entries = await Promise.all(
    Object.entries(targets).map(async ([name, base]) => {
      try {
        const res = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(timeoutMs) });
        return [name, res.ok ? 'up' : 'down'] as const;
      } catch {
        return [name, 'down'] as const;
      }
    }),
  );
  const services = Object.fromEntries(entries) as Record<ServiceName, 'up' | 'down'>;
  const ok = entries.every(([, s]) => s === 'up');
  return { ok, body: { status: ok ? 'ok' : 'degraded', services } };
}
