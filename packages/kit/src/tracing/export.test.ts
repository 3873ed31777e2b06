import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceApp } from '../app.js';
import { createLogger } from '../logger.js';
import { continueTrace, runInTrace, traceparentOf } from './context.js';
import { traceDependency } from './dependencies.js';
import { flushTraces, startTracing, stopTracing, tracesExported } from './export.js';
import { continueBatch, endPublishSpans, startPublishSpans, traceparentHeader } from './kafka.js';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpan = '00f067aa0ba902b7';

async function appWith(route: string) {
  const app = await createServiceApp({
    name: 'unit',
    logger: createLogger({ name: 'unit', level: 'silent', format: 'json' }),
  });
  app.get(route, async () => traceDependency('redis', 'GET', async () => ({ ok: true })));
  return app;
}

afterEach(stopTracing);

describe('spans', () => {
  it('are not built when tracing is off: the header still passes on, with a span id of our own', async () => {
    expect(tracesExported()).toBe(false);
    const app = await appWith('/things/:id');
    let forwarded: string | undefined;
    app.addHook('onSend', async (req) => {
      forwarded = req.headers.traceparent as string;
    });
    await app.inject({ method: 'GET', url: '/things/1', headers: { traceparent: `00-${traceId}-${callerSpan}-01` } });
    await app.close();
    expect(forwarded).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(forwarded).not.toContain(callerSpan);
  });

  it("make a server span per request, a child of the caller's, named by route, with dependency spans under it", async () => {
    const exporter = new InMemorySpanExporter();
    startTracing('unit', { processor: new SimpleSpanProcessor(exporter) });
    const app = await appWith('/things/:id');
    let forwarded: string | undefined;
    app.addHook('onSend', async (req) => {
      if (req.url === '/things/42') forwarded = req.headers.traceparent as string;
    });
    await app.inject({ method: 'GET', url: '/things/42', headers: { traceparent: `00-${traceId}-${callerSpan}-01` } });
    // Not sampled by the caller: no span.
    await app.inject({ method: 'GET', url: '/things/43', headers: { traceparent: `00-${traceId}-${callerSpan}-00` } });
    await app.close();

    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.kind === SpanKind.SERVER);
    expect(spans.filter((s) => s.kind === SpanKind.SERVER)).toHaveLength(1);
    expect(server?.name).toBe('GET /things/:id');
    expect(server?.spanContext().traceId).toBe(traceId);
    expect(server?.parentSpanContext?.spanId).toBe(callerSpan);
    expect(server?.attributes['http.route']).toBe('/things/:id');
    expect(server?.attributes['http.response.status_code']).toBe(200);
    expect(server?.resource.attributes['service.name']).toBe('unit');
    // What the service passes on names the server span as the parent.
    expect(forwarded).toBe(`00-${traceId}-${server?.spanContext().spanId}-01`);
    const redis = spans.find((s) => s.name === 'redis GET');
    expect(redis?.kind).toBe(SpanKind.CLIENT);
    expect(redis?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
  });

  it('start a trace at the first process when the caller sends none', async () => {
    const exporter = new InMemorySpanExporter();
    startTracing('unit', { processor: new SimpleSpanProcessor(exporter) });
    const app = await appWith('/x');
    await app.inject({ method: 'GET', url: '/x', headers: { traceparent: 'garbage' } });
    await app.close();
    const [server] = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    expect(server?.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(server?.parentSpanContext).toBeUndefined();
  });

  it('are made for S3 calls with metrics off', async () => {
    const { instrumentS3 } = await import('../metrics/dependencies.js');
    const { metricsEnabled } = await import('../metrics/registry.js');
    expect(metricsEnabled()).toBe(false);
    const exporter = new InMemorySpanExporter();
    startTracing('unit', { processor: new SimpleSpanProcessor(exporter) });
    const client = { putObject: async (bucket: string) => `put in ${bucket}` };
    instrumentS3(client as never);
    const trace = continueTrace(`00-${traceId}-${callerSpan}-01`);
    expect(await runInTrace(trace, () => client.putObject('reports'))).toBe('put in reports');
    const [put] = exporter.getFinishedSpans();
    expect(put?.name).toBe('s3 putObject');
    expect(put?.spanContext().traceId).toBe(traceId);
    expect(put?.parentSpanContext?.spanId).toBe(trace.spanId);
  });

  it('go to an OTLP/HTTP collector at <endpoint>/v1/traces', async () => {
    const posts: { url?: string; bytes: number }[] = [];
    const collector = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      req.on('end', () => {
        posts.push({ url: req.url, bytes });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    try {
      startTracing('unit', { endpoint: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/` });
      const app = await appWith('/y');
      await app.inject({ method: 'GET', url: '/y' });
      await app.close();
      await flushTraces();
      expect(posts.map((p) => p.url)).toContain('/v1/traces');
      expect(posts[0]?.bytes).toBeGreaterThan(0);
    } finally {
      await stopTracing();
      collector.close();
    }
  });
});

describe('the traceparent of an event', () => {
  const stored = `00-${traceId}-${callerSpan}-01`;

  it('travels as stored when tracing is off', () => {
    const spans = startPublishSpans([{ id: 'e1', type: 't', traceparent: stored }]);
    expect(spans).toBeNull();
    expect(traceparentHeader(spans, { id: 'e1', traceparent: stored })).toEqual({ traceparent: stored });
    expect(traceparentHeader(spans, { id: 'e2' })).toEqual({});
  });

  it('names the producer span when tracing is on, a child of the stored one', () => {
    const exporter = new InMemorySpanExporter();
    startTracing('unit', { processor: new SimpleSpanProcessor(exporter) });
    const spans = startPublishSpans([
      { id: 'e1', type: 'request-submitted', traceparent: stored },
      { id: 'e2', type: 't' },
    ]);
    const header = traceparentHeader(spans, { id: 'e1', traceparent: stored });
    expect(traceparentHeader(spans, { id: 'e2' })).toEqual({});
    endPublishSpans(spans);
    const [publish] = exporter.getFinishedSpans();
    expect(publish?.name).toBe('request-submitted publish');
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(publish?.parentSpanContext?.spanId).toBe(callerSpan);
    expect(header).toEqual({ traceparent: `00-${traceId}-${publish?.spanContext().spanId}-01` });
  });

  it('is the current trace when an event is created inside one', async () => {
    const { createEvent } = await import('../events/envelope.js');
    const trace = continueTrace(stored);
    const event = runInTrace(trace, () => createEvent('t', {}, { source: 's', key: 'k' }));
    expect(event.traceparent).toBe(traceparentOf(trace));
    expect(createEvent('t', {}, { source: 's', key: 'k' }).traceparent).toBeUndefined();
  });

  it("goes on in a batching handler's one span, a child of the first event's sender, linked to the others'", () => {
    const exporter = new InMemorySpanExporter();
    startTracing('unit', { processor: new SimpleSpanProcessor(exporter) });
    const other = `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`;
    const started = continueBatch('lead-received', [{ traceparent: stored }, {}, { traceparent: other }]);
    started.span?.end();
    const [batch] = exporter.getFinishedSpans();
    expect(batch?.kind).toBe(SpanKind.CONSUMER);
    expect(batch?.name).toBe('lead-received process');
    expect(batch?.attributes['messaging.batch.message_count']).toBe(3);
    expect(batch?.spanContext().traceId).toBe(traceId);
    expect(batch?.parentSpanContext?.spanId).toBe(callerSpan);
    expect(batch?.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([['1'.repeat(32), '2'.repeat(16)]]);
    // The handler runs in the span: its calls (an SMTP send) are children of it, in the first trace.
    expect(started.trace).toMatchObject({ traceId, spanId: batch?.spanContext().spanId, parentSpanId: callerSpan });
  });

  it("of a batch's first event is the batch's trace when tracing is off, or when that event is not sampled", () => {
    const off = continueBatch('t', [{}, { traceparent: stored }]);
    expect(off.span).toBeNull();
    expect(off.trace).toMatchObject({ traceId, parentSpanId: callerSpan });
    const exporter = new InMemorySpanExporter();
    startTracing('unit', { processor: new SimpleSpanProcessor(exporter) });
    const unsampled = continueBatch('t', [{ traceparent: stored.replace(/-01$/, '-00') }, { traceparent: stored }]);
    expect(unsampled.span).toBeNull();
    expect(unsampled.trace.traceId).toBe(traceId);
    // No event traced: a trace of its own.
    const untraced = continueBatch('t', [{}, { traceparent: 'garbage' }]);
    untraced.span?.end();
    const [root] = exporter.getFinishedSpans();
    expect(root?.parentSpanContext).toBeUndefined();
    expect(root?.links).toEqual([]);
    expect(untraced.trace.traceId).toBe(root?.spanContext().traceId);
  });
});
