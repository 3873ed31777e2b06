import type { IncomingMessage } from 'node:http';
import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { ServicePlugin } from '../app.js';
import { type Logger, childWithTrace } from '../logger.js';
import { type TraceContext, traceparentOf } from './context.js';
import { continueWithSpan, endSpan, flushTraces, startSpan, tracesExported } from './export.js';

const TRACE = Symbol('trace');
const SPAN = Symbol('span');
type Traced = IncomingMessage & { [TRACE]?: TraceContext; [SPAN]?: Span };

/**
 * The request's trace: continued from its `traceparent` (a browser's, or the gateway's forwarded
 * one) or started here. The header is replaced by this process's span, so the gateway's proxy,
 * which forwards the client's headers, hands the service a child of the gateway's span.
 */
export function traceOfRequest(raw: IncomingMessage): TraceContext {
  const traced = raw as Traced;
  if (!traced[TRACE]) {
    // Exported: a server span, a child of the caller's span (or a trace's first), named at the end.
    const { trace: context, span } = continueWithSpan(raw.headers.traceparent, raw.method ?? 'HTTP', SpanKind.SERVER);
    if (span) traced[SPAN] = span;
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
  return childWithTrace(logger as Logger, bindings, traceOfRequest(raw).traceId, options);
}

/**
 * Sends the spans still buffered when the app closes. The route handler runs inside the request's
 * trace from the kit's preHandler (app.ts), which enters it with the request's other context.
 */
export const traceFlushing: ServicePlugin = async (app) => {
  if (tracesExported()) app.addHook('onClose', flushTraces);
};

/**
 * Ends the request's server span with the answer, named by the route pattern (bounded, no ids);
 * null when traces are not exported. Called by the kit's end-of-request hook (app.ts).
 */
export function serverSpanEnder(): ((req: FastifyRequest, reply: FastifyReply, route: string) => void) | null {
  if (!tracesExported()) return null;
  return (req, reply, route) => {
    const span = (req.raw as Traced)[SPAN];
    if (!span) return;
    span.updateName(`${req.method} ${route}`);
    span.setAttributes({
      'http.request.method': req.method,
      'http.route': route,
      'http.response.status_code': reply.statusCode,
    });
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    endSpan(span);
  };
}

/** An HTTP call this process makes for a request it serves (the gateway's hop to a service). */
export interface OutgoingCall {
  /** The `traceparent` to send: the callee's server span is a child of this call's span. */
  traceparent: string;
  /** Ends the call's span with the callee's status, or as failed with `err`; once, later calls do nothing. */
  end(statusCode?: number, err?: unknown): void;
}

const NOTHING_TO_END = () => {};

/**
 * A call to `service` made on behalf of `raw`: a client span, a child of the request's server
 * span, when traces are exported and the request's trace is sampled; otherwise only the header
 * that names the request's own span, with its sampling decision.
 */
export const startOutgoingCall = (raw: IncomingMessage, method: string, route: string, service: string) =>
  startCallInTrace(traceOfRequest(raw), method, route, service);

/** The same, for a call made within `parent` (the work's current trace: a route handler's, an event's). */
export function startCallInTrace(parent: TraceContext, method: string, route: string, service: string): OutgoingCall {
  const started = tracesExported()
    ? startSpan(`${method} ${route}`, SpanKind.CLIENT, parent, {
        'http.request.method': method,
        'http.route': route,
        'peer.service': service,
      })
    : null;
  if (!started) return { traceparent: traceparentOf(parent), end: NOTHING_TO_END };
  const { span } = started;
  let ended = false;
  return {
    traceparent: traceparentOf(started.context),
    end(statusCode, err) {
      if (ended) return;
      ended = true;
      if (statusCode !== undefined) {
        span.setAttribute('http.response.status_code', statusCode);
        if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      endSpan(span, err);
    },
  };
}
