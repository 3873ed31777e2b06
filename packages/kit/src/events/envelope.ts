import { randomUUID } from 'node:crypto';
import { currentTrace, traceparentOf } from '../tracing/context.js';

/** What travels on Kafka: one envelope per event, one topic per event type. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  occurredAt: string;
  source: string;
  correlationId: string;
  /** W3C trace context of the work that caused the event (tracing/context.ts), when there was one. */
  traceparent?: string;
  data: T;
}

/** An envelope waiting in an outbox, with the partition key that keeps its aggregate in order. */
export interface OutboxEntry<T = unknown> extends EventEnvelope<T> {
  key: string;
}

export function createEvent<T>(
  type: string,
  data: T,
  meta: { source: string; key: string; correlationId?: string },
): OutboxEntry<T> {
  const trace = currentTrace();
  return {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    source: meta.source,
    correlationId: meta.correlationId ?? randomUUID(),
    key: meta.key,
    ...(trace ? { traceparent: traceparentOf(trace) } : {}),
    data,
  };
}

export function parseEnvelope(raw: Buffer | null): EventEnvelope | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw.toString('utf8')) as Partial<EventEnvelope>;
    if (typeof value.id !== 'string' || typeof value.type !== 'string' || value.data === undefined) return null;
    return value as EventEnvelope;
  } catch {
    return null;
  }
}
