/** Traces (OpenTelemetry, W3C traceparent through HTTP and Kafka): owned by engineer T. */
export * from './context.js';
