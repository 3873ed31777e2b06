import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HistogramSeries } from './histogram.js';
import { httpDuration, inFlight, metricsEnabled } from './registry.js';

/** Label of a request no route matched (404s): one value, whatever URL was asked. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What the kit's request hooks (app.ts) tell the HTTP metrics; null when metrics are off. */
export interface HttpMetrics {
  started(): void;
  answered(req: FastifyRequest, reply: FastifyReply, route: string): void;
  /** Given up by its client before it was answered (Fastify's onRequestAbort). */
  aborted(): void;
}

/**
 * Request duration by route pattern (`/requests/:id`, never the URL with its ids), method and
 * status, and the requests in flight. Only when metrics are on for this process. Per request: a
 * count moved twice (read into its gauge at scrape time), three map lookups by values Fastify
 * already holds (the route's pattern, the parser's method string, the status number), and one
 * observation on that series. No hooks of its own: the kit's start and end hooks call it, as a
 * separate hook per concern cost the gateway measurably more per request.
 */
export function httpMetrics(): HttpMetrics | null {
  if (!metricsEnabled()) return null;
  const byRoute = new Map<string, Map<string, Map<number, HistogramSeries>>>();
  const seriesFor = (route: string, method: string, status: number): HistogramSeries => {
    let byMethod = byRoute.get(route);
    if (!byMethod) {
      byMethod = new Map();
      byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = httpDuration.series({ route, method, status_code: String(status) });
      byStatus.set(status, series);
    }
    return series;
  };
  return {
    started() {
      inFlight.count++;
    },
    aborted() {
      inFlight.count--;
    },
    answered(req, reply, route) {
      inFlight.count--;
      seriesFor(route, req.method, reply.statusCode).observe(reply.elapsedTime / 1000);
    },
  };
}
