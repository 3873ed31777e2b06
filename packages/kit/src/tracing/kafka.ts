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
 * One consumer span for events a batching handler takes in one call: the span starts a trace of
 * its own and links each event's trace (OpenTelemetry's way for work with several parents).
 * Null when tracing is off; else the span and the context the handler runs in.
 */
export function startBatchSpan(
  topic: string,
  events: { traceparent?: string }[],
): { span: Span; context: TraceContext } | null {
  if (!tracesExported()) return null;
  const links = events.flatMap((e) => {
    const caller = e.traceparent ? continueTrace(e.traceparent) : null;
    return caller?.parentSpanId
      ? [{ context: { traceId: caller.traceId, spanId: caller.parentSpanId, traceFlags: 1, isRemote: true } }]
      : [];
  });
  const attributes = {
    'messaging.system': 'kafka',
    'messaging.destination.name': topic,
    'messaging.batch.message_count': events.length,
  };
  return startSpan(`${topic} process`, SpanKind.CONSUMER, null, attributes, links);
}
