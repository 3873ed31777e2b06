import {
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Tracer,
  trace as otelTrace,
} from '@opentelemetry/api';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as TraceBase from '@opentelemetry/sdk-trace-base';
import type { BasicTracerProvider, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type * as Conventions from '@opentelemetry/semantic-conventions';
import { requireLazily } from '../lazy-require.js';
import { type TraceContext, continueTrace, currentTrace, runInTrace } from './context.js';

/**
 * Spans through the OpenTelemetry SDK, exported over OTLP/HTTP (`<endpoint>/v1/traces`) in
 * batches. Built only when OTEL_EXPORTER_OTLP_ENDPOINT is set (runService) or a test hands an
 * exporter: otherwise `tracer` stays null, no span is created and a request costs only the
 * header read of context.ts. The SDK's provider is not registered globally: the parent of each
 * span is given explicitly from the kit's own trace context, so no context manager is needed.
 */
let provider: BasicTracerProvider | null = null;
let tracer: Tracer | null = null;

export interface TracingOptions {
  /** A collector's OTLP/HTTP base URL. */
  endpoint?: string;
  /** Beside or instead of OTLP: tests hand a SimpleSpanProcessor over an InMemorySpanExporter. */
  processor?: SpanProcessor;
}

/** Starts recording this process's spans; a second call replaces the first (tests). */
export function startTracing(service: string, options: TracingOptions): void {
  // The SDK and the OTLP exporter are loaded here, not at import: a process that exports no
  // traces (the default) would hold them for nothing, about 15 MB of RSS (bench:memory).
  const load = requireLazily;
  const { OTLPTraceExporter } = load('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  const { detectResources, envDetector, resourceFromAttributes } = load('@opentelemetry/resources') as typeof Resources;
  const { BasicTracerProvider, BatchSpanProcessor } = load('@opentelemetry/sdk-trace-base') as typeof TraceBase;
  const { ATTR_SERVICE_NAME } = load('@opentelemetry/semantic-conventions') as typeof Conventions;
  const processors: SpanProcessor[] = [];
  if (options.processor) processors.push(options.processor);
  if (options.endpoint) {
    const url = `${options.endpoint.replace(/\/$/, '')}/v1/traces`;
    // Bounded queue: a collector that is away loses spans, never slows a request.
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url }), { maxQueueSize: 2048 }));
  }
  void provider?.shutdown();
  // The SDK reads OpenTelemetry's environment itself (OTEL_TRACES_SAMPLER and its argument,
  // OTEL_BSP_*) but for the resource, which is the caller's: OTEL_RESOURCE_ATTRIBUTES (the
  // environment detector's) with the process's own name over any `service.name` there, as one
  // setting shared by every pod must not make them all one service.
  const resource = detectResources({ detectors: [envDetector] }).merge(
    resourceFromAttributes({ [ATTR_SERVICE_NAME]: service }),
  );
  provider = new BasicTracerProvider({ resource, spanProcessors: processors });
  tracer = provider.getTracer('homereport');
}

/** Stops recording (tests) after sending what is queued. */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = null;
  tracer = null;
  await stopping?.shutdown();
}

/** Sends the spans still queued (on shutdown). */
export const flushTraces = async (): Promise<void> => {
  await provider?.forceFlush();
};

export const tracesExported = (): boolean => tracer !== null;

/**
 * A span of `parent`'s trace (a child of `parent.spanId`), or a trace's first span when `parent`
 * is null, and the context whose callees are its children; null when tracing is off or the
 * caller asked for no sampling. A trace's first span is sampled or not by the SDK's sampler
 * (OTEL_TRACES_SAMPLER): the context says which, so every header sent on carries the decision.
 */
export function startSpan(
  name: string,
  kind: SpanKind,
  parent: TraceContext | null,
  attributes: Record<string, string | number> = {},
  links: Link[] = [],
): { span: Span; context: TraceContext } | null {
  if (!tracer || (parent && !parent.sampled)) return null;
  const parentContext = parent
    ? otelTrace.setSpanContext(ROOT_CONTEXT, {
        traceId: parent.traceId,
        spanId: parent.spanId,
        traceFlags: 1,
        isRemote: true,
      })
    : ROOT_CONTEXT;
  const span = tracer.startSpan(name, { kind, attributes, links, root: parent === null }, parentContext);
  const own = span.spanContext();
  return {
    span,
    context: {
      traceId: own.traceId,
      spanId: own.spanId,
      ...(parent ? { parentSpanId: parent.spanId } : {}),
      sampled: (own.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED,
    },
  };
}

/**
 * The trace named by an incoming `traceparent` (an HTTP header, a Kafka header), continued in a
 * span of this process when tracing is on (else `span` is null and only the context is made).
 */
export function continueWithSpan(
  traceparent: unknown,
  name: string,
  kind: SpanKind,
  attributes: Record<string, string | number> = {},
): { trace: TraceContext; span: Span | null } {
  const incoming = continueTrace(traceparent);
  if (!tracer) return { trace: incoming, span: null };
  const caller = incoming.parentSpanId ? { ...incoming, spanId: incoming.parentSpanId } : null;
  const started = startSpan(name, kind, caller, attributes);
  return started ? { trace: started.context, span: started.span } : { trace: incoming, span: null };
}

/** Ends `span` as failed when `err` is given, with the error named. */
export function endSpan(span: Span, err?: unknown): void {
  if (err instanceof Error || typeof err === 'string') {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  }
  span.end();
}

/**
 * Runs `call` in a child span of the current trace (a client call the kit wraps: SMTP, Kafka,
 * S3): `call` itself only when tracing is off or no trace is current.
 */
export async function inSpan<T>(
  name: string,
  attributes: Record<string, string | number>,
  call: () => Promise<T>,
  kind: SpanKind = SpanKind.CLIENT,
): Promise<T> {
  if (!tracer) return call();
  const parent = currentTrace();
  const started = parent ? startSpan(name, kind, parent, attributes) : null;
  if (!started) return call();
  try {
    const result = await runInTrace(started.context, call);
    endSpan(started.span);
    return result;
  } catch (err) {
    endSpan(started.span, err);
    throw err;
  }
}
