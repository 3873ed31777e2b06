import { randomBytes } from 'node:crypto';
import { currentWork, runInWork } from '../work-context.js';

/**
 * W3C trace context (https://www.w3.org/TR/trace-context/): the trace a piece of work belongs to
 * and the span that caused it. The gateway adopts a caller's `traceparent` or starts a trace; the
 * services continue it from the header the gateway forwards; events carry it in a `traceparent`
 * Kafka header and consumers continue it. Log lines name `traceId`, so one id follows a browser
 * call through every process, beside the request id.
 */
export interface TraceContext {
  traceId: string;
  /** This process's span: the parent of whatever it calls or publishes. */
  spanId: string;
  /** The caller's span, when the trace came from one. */
  parentSpanId?: string;
  sampled: boolean;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const INVALID_TRACE = '0'.repeat(32);
const INVALID_SPAN = '0'.repeat(16);

/*
 * Ids from a per-process random prefix and a counter: unique as W3C asks, at a fraction of the
 * cost of random bytes per request (crypto.randomBytes took ~17 µs for the two ids of a request
 * on a loaded machine, about a tenth of the gateway's whole CPU time per request). When spans are
 * exported the SDK makes its own ids (export.ts); these serve log lines and headers otherwise.
 */
const TRACE_PREFIX = randomBytes(8).toString('hex');
const SPAN_PREFIX = randomBytes(4).toString('hex');
let traces = 0;
let spans = 0;

/** 16 hex digits, never all zeros (the counter part starts at 1 and skips 0 when it wraps). */
export const newSpanId = () => {
  spans = (spans + 1) % 0x1_0000_0000 || 1;
  return SPAN_PREFIX + spans.toString(16).padStart(8, '0');
};

/** 32 hex digits: the process's prefix and a count that does not wrap in practice (2^53). */
const newTraceId = () => TRACE_PREFIX + (++traces).toString(16).padStart(16, '0');

/** A new span of the trace named by `traceparent`, or of a new trace when it names none validly. */
export function continueTrace(traceparent: unknown): TraceContext {
  const match = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent.trim().toLowerCase()) : null;
  if (match?.[1] && match[1] !== INVALID_TRACE && match[2] !== INVALID_SPAN) {
    return {
      traceId: match[1],
      spanId: newSpanId(),
      parentSpanId: match[2],
      sampled: (Number.parseInt(match[3] ?? '0', 16) & 1) === 1,
    };
  }
  return { traceId: newTraceId(), spanId: newSpanId(), sampled: true };
}

/** The header value that makes `context`'s span the parent of the callee's. */
export const traceparentOf = (context: TraceContext) =>
  `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;

/**
 * Runs `work` within `context`: events created there carry it, and it is `currentTrace()`. The
 * work keeps the MongoDB deadline it was under (work-context.ts holds both).
 */
export const runInTrace = <T>(context: TraceContext, work: () => T): T =>
  runInWork({ trace: context, mongoDeadline: currentWork()?.mongoDeadline }, work);

export const currentTrace = (): TraceContext | undefined => currentWork()?.trace;
