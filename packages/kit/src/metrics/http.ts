import type { ServiceApp } from '../app.js';
import { httpDuration, inFlight, labelledChild, metricsEnabled } from './registry.js';

/** Label of a request no route matched (404s): one value, whatever URL was asked. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Request duration by route pattern (`/requests/:id`, never the URL with its ids), method and
 * status, and the requests in flight. Only when metrics are on for this process. Per request: a
 * count moved twice (read into its gauge at scrape time) and one observe on a histogram child
 * made once per route, method and status. A request ends either answered (onResponse) or given
 * up by its client (onRequestAbort, which Fastify runs only for a request not answered).
 */
export function registerHttpMetrics(app: ServiceApp): void {
  if (!metricsEnabled()) return;
  const children = new Map<string, ReturnType<typeof httpDuration.labels>>();
  app.addHook('onRequest', (_req, _reply, done) => {
    inFlight.count++;
    done();
  });
  app.addHook('onRequestAbort', (_req, done) => {
    inFlight.count--;
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    inFlight.count--;
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    labelledChild(httpDuration, children, `${route} ${req.method} ${status}`, {
      route,
      method: req.method,
      status_code: String(status),
    }).observe(reply.elapsedTime / 1000);
    done();
  });
}
