import type { FastifyReply, FastifyRequest } from 'fastify';
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
 * status, and the requests in flight. Only when metrics are on for this process. No hooks of its
 * own: the kit's start and end hooks call it, as a separate hook per concern cost the gateway
 * measurably more per request.
 */
export function httpMetrics(): HttpMetrics | null {
  if (!metricsEnabled()) return null;
  return {
    started() {
      inFlight.count++;
    },
    aborted() {
      inFlight.count--;
    },
    answered(req, reply, route) {
      inFlight.count--;
      httpDuration.observe({ route, method: req.method, status_code: reply.statusCode }, reply.elapsedTime / 1000);
    },
  };
}
