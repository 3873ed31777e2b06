import type { ServiceApp } from '../app.js';
import { httpDuration, httpInFlight, metricsEnabled } from './registry.js';

/** Label of a request no route matched (404s): one value, whatever URL was asked. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Request duration by route pattern (`/requests/:id`, never the URL with its ids), method and
 * status, and the requests in flight. Only when metrics are on for this process.
 */
export function registerHttpMetrics(app: ServiceApp): void {
  if (!metricsEnabled()) return;
  app.addHook('onRequest', (_req, reply, done) => {
    httpInFlight.inc();
    // 'close' comes for answered and aborted requests alike; onResponse misses the aborted ones.
    reply.raw.once('close', () => httpInFlight.dec());
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    httpDuration.observe(
      { route: req.routeOptions.url ?? UNMATCHED_ROUTE, method: req.method, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
