import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceApp } from '../app.js';
import { type TraceContext, continueTrace, runInTrace, traceparentOf } from './context.js';
import { flushTraces, recordSpan, tracesExported } from './export.js';

const TRACE = Symbol('trace');
type Traced = IncomingMessage & { [TRACE]?: TraceContext };

/**
 * The request's trace: continued from its `traceparent` (a browser's, or the gateway's forwarded
 * one) or started here. The header is replaced by this process's span, so the gateway's proxy,
 * which forwards the client's headers, hands the service a child of the gateway's span.
 */
export function traceOfRequest(raw: IncomingMessage): TraceContext {
  const traced = raw as Traced;
  if (!traced[TRACE]) {
    const context = continueTrace(raw.headers.traceparent);
    traced[TRACE] = context;
    raw.headers.traceparent = traceparentOf(context);
  }
  return traced[TRACE];
}

/** Fastify's `childLoggerFactory`: every line of a request's logger names its trace. */
export function tracedChildLogger(
  this: unknown,
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: object,
  raw: IncomingMessage,
): FastifyBaseLogger {
  return logger.child({ ...bindings, traceId: traceOfRequest(raw).traceId }, options);
}

/**
 * Runs the route handler inside the request's trace, so events it records carry it (preHandler:
 * after the body was read, whose stream callbacks would lose an earlier context).
 */
export function registerTracing(app: ServiceApp): void {
  app.addHook('preHandler', (req, _reply, done) => {
    runInTrace(traceOfRequest(req.raw), done);
  });
  if (!tracesExported()) return;
  app.addHook('onClose', flushTraces);
  // One server span per answered request, named by its route pattern.
  app.addHook('onResponse', (req, reply, done) => {
    const endMs = Date.now();
    const route = req.routeOptions.url ?? 'unmatched';
    recordSpan({
      trace: traceOfRequest(req.raw),
      name: `${req.method} ${route}`,
      kind: 'server',
      startMs: endMs - reply.elapsedTime,
      endMs,
      attributes: {
        'http.request.method': req.method,
        'http.route': route,
        'http.response.status_code': reply.statusCode,
      },
      error: reply.statusCode >= 500,
    });
    done();
  });
}
