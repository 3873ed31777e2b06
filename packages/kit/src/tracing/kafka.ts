import { type Span, SpanKind } from '@opentelemetry/api';
import { type TraceContext, continueTrace, traceparentOf } from './context.js';
import { continueWithSpan, endSpan, startSpan, tracesExported } from './export.js';

/** Producer spans of one send: by event id, the span and the traceparent its Kafka header carries. */
export type PublishSpans = Map<string, { span: Span; traceparent: string }>;

/**
 * A producer span per event that carries a trace (the outbox keeps each event's traceparent, so
 * a relay sending it later still continues the request's trace), when tracing is on; the
 * consumer's span is then a child of the send. Off: null, and the stored traceparent travels as is.
 */
export function startPublishSpans(events: { id: string; type: string; traceparent?: string }[]): PublishSpans | null {
  if (!tracesExported()) return null;
  const spans: PublishSpans = new Map();
  for (const e of events) {
    if (!e.traceparent) continue;
    const { trace, span } = continueWithSpan(e.traceparent, `${e.type} publish`, SpanKind.PRODUCER, {
      'messaging.system': 'kafka',
      'messaging.destination.name': e.type,
      'messaging.message.id': e.id,
    });
    if (span) spans.set(e.id, { span, traceparent: traceparentOf(trace) });
  }
  return spans;
}

/** The traceparent header of an event: its producer span's when there is one, else the stored one. */
export const traceparentHeader = (
  spans: PublishSpans | null,
  e: { id: string; traceparent?: string },
): { traceparent: string } | Record<string, never> => {
  const traceparent = spans?.get(e.id)?.traceparent ?? e.traceparent;
  return traceparent ? { traceparent } : {};
};

export function endPublishSpans(spans: PublishSpans | null, err?: unknown): void {
  for (const { span } of spans?.values() ?? []) endSpan(span, err);
}

/**
 * The trace of events a batching handler takes in one call, and its one consumer span when
 * tracing is on. The span is a child of the first event's sender (its trace goes on, so a call
 * with a single request's event keeps that request's `smtp send` in the request's trace) and links
 * every other event's sender, OpenTelemetry's way for work with several parents. `traceparent` of
 * an event is the one it was delivered with (the producer span's Kafka header), else its stored one.
 * Off, or when the first traced event asked for no sampling: the first event's trace, no span.
 */
export function continueBatch(
  topic: string,
  events: { traceparent?: string }[],
): { trace: TraceContext; span: Span | null; traces: (TraceContext | undefined)[] } {
  // Each event's trace, as its sender left it (`traces`, per event: the caller logs with them),
  // and its sender: the trace it belongs to and the span that sent it.
  const traces = events.map((e) => {
    const own = e.traceparent ? continueTrace(e.traceparent) : undefined;
    return own?.parentSpanId ? own : undefined;
  });
  const senders = traces.flatMap((own) => (own?.parentSpanId ? [{ ...own, spanId: own.parentSpanId }] : []));
  const [first, ...others] = senders;
  if (!tracesExported() || (first && !first.sampled))
    return { trace: traces.find((t) => t !== undefined) ?? continueTrace(undefined), span: null, traces };
  const links = others.map((sender) => ({
    context: { traceId: sender.traceId, spanId: sender.spanId, traceFlags: sender.sampled ? 1 : 0, isRemote: true },
  }));
  const attributes = {
    'messaging.system': 'kafka',
    'messaging.destination.name': topic,
    'messaging.batch.message_count': events.length,
  };
  const started = startSpan(`${topic} process`, SpanKind.CONSUMER, first ?? null, attributes, links);
  // Never null here (tracing is on and `first` sampled); the fallback keeps the type honest.
  return started
    ? { trace: started.context, span: started.span, traces }
    : { trace: continueTrace(undefined), span: null, traces };
}
