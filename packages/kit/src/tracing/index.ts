/**
 * Traces (OpenTelemetry, W3C traceparent through HTTP and Kafka): owned by engineer T.
 * context.ts: the trace a piece of work belongs to (always, for log lines and headers);
 * export.ts: spans through the SDK, only when OTEL_EXPORTER_OTLP_ENDPOINT is set;
 * http.ts, kafka.ts, dependencies.ts: where the kit starts them.
 */
export * from './context.js';
