import type { TraceContext } from './context.js';

/** One finished span, as this process saw it. */
export interface SpanRecord {
  trace: TraceContext;
  name: string;
  kind: 'server' | 'consumer';
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number>;
  error: boolean;
}

/** OTLP's SpanKind numbers. */
const KIND = { server: 2, consumer: 5 } as const;
const MAX_QUEUED = 2048;
const BATCH = 512;
const FLUSH_MS = 1000;

/**
 * Sends spans to an OpenTelemetry collector over OTLP/HTTP with JSON bodies
 * (`<endpoint>/v1/traces`), in batches, at most a second late. Only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set: otherwise nothing is recorded and no span is built.
 * A collector that is away loses spans (the queue is bounded), never slows a request.
 */
export class OtlpExporter {
  private queue: SpanRecord[] = [];
  private readonly timer: NodeJS.Timeout;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly service: string,
    private readonly endpoint: string,
    private readonly send: typeof fetch = fetch,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  add(span: SpanRecord): void {
    if (!span.trace.sampled || this.queue.length >= MAX_QUEUED) return;
    this.queue.push(span);
    if (this.queue.length >= BATCH) void this.flush();
  }

  /** Sends what is queued; resolves once sent (or failed). */
  flush(): Promise<void> {
    const spans = this.queue.splice(0, this.queue.length);
    if (spans.length === 0) return this.sending;
    this.sending = this.sending.then(() =>
      this.send(`${this.endpoint.replace(/\/$/, '')}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(this.body(spans)),
        signal: AbortSignal.timeout(5000),
      }).then(
        (res) => void res.arrayBuffer().catch(() => undefined),
        () => undefined,
      ),
    );
    return this.sending;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private body(spans: SpanRecord[]) {
    const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();
    return {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: this.service } }] },
          scopeSpans: [
            {
              scope: { name: 'homereport' },
              spans: spans.map((s) => ({
                traceId: s.trace.traceId,
                spanId: s.trace.spanId,
                ...(s.trace.parentSpanId ? { parentSpanId: s.trace.parentSpanId } : {}),
                name: s.name,
                kind: KIND[s.kind],
                startTimeUnixNano: nanos(s.startMs),
                endTimeUnixNano: nanos(s.endMs),
                attributes: Object.entries(s.attributes).map(([key, v]) => ({
                  key,
                  value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v },
                })),
                status: { code: s.error ? 2 : 0 },
              })),
            },
          ],
        },
      ],
    };
  }
}

let exporter: OtlpExporter | null = null;

/** Starts exporting this process's spans (runService, when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
export function startTraceExport(service: string, endpoint: string, send: typeof fetch = fetch): OtlpExporter {
  exporter ??= new OtlpExporter(service, endpoint, send);
  return exporter;
}

/** Sends the spans still queued (on shutdown). */
export const flushTraces = async (): Promise<void> => {
  await exporter?.flush();
};

export const tracesExported = (): boolean => exporter !== null;

/** Records a finished span when spans are exported; nothing otherwise. */
export function recordSpan(span: SpanRecord): void {
  exporter?.add(span);
}
