import { describe, expect, it } from 'vitest';
import { createServiceApp } from '../app.js';
import { createLogger } from '../logger.js';
import { flushTraces, startTraceExport } from './export.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, string> }[];
}

describe('span export', () => {
  it('sends one OTLP/HTTP JSON server span per request, a child of the caller span, named by route', async () => {
    const bodies: { url: string; body: any }[] = [];
    const send = (async (url: string, init: RequestInit) => {
      bodies.push({ url, body: JSON.parse(String(init.body)) });
      return new Response('{}');
    }) as unknown as typeof fetch;
    startTraceExport('unit', 'http://collector.invalid:4318/', send);
    const app = await createServiceApp({
      name: 'unit',
      logger: createLogger({ name: 'unit', level: 'silent', format: 'json' }),
    });
    app.get('/things/:id', async () => ({ ok: true }));
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await app.inject({
      method: 'GET',
      url: '/things/42',
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    // Not sampled by the caller: no span.
    await app.inject({
      method: 'GET',
      url: '/things/43',
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-00` },
    });
    await flushTraces();
    await app.close();

    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.url).toBe('http://collector.invalid:4318/v1/traces');
    const resource = bodies[0]?.body.resourceSpans[0];
    expect(resource.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'unit' } });
    const spans = resource.scopeSpans[0].spans as OtlpSpan[];
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ traceId, parentSpanId: '00f067aa0ba902b7', name: 'GET /things/:id', kind: 2 });
    expect(spans[0]?.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(spans[0]?.attributes).toContainEqual({ key: 'http.route', value: { stringValue: '/things/:id' } });
  });
});
