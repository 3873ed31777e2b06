import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ReplicaStack,
  replicaStackPossible,
  shiftedOffset,
  startSeparateStack,
  through,
  uniqueAddress,
} from '../../test/replicas/stack.js';
import { eventually } from '../../test/support/api.js';

/** One span as OTLP/HTTP JSON carries it (ids in hex), with its process's resource attributes. */
interface ReceivedSpan {
  service: string;
  resource: Record<string, string | undefined>;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

// OTLP's SpanKind numbers (one more than the API's enum).
const KIND = { server: 2, client: 3, producer: 4, consumer: 5 };

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: Omit<ReceivedSpan, 'service'>[] }[];
  }[];
}

/**
 * A collector inside the test: what the kit's exporter (@opentelemetry/exporter-trace-otlp-http,
 * JSON over HTTP) posts to `<endpoint>/v1/traces`, flattened into spans.
 */
async function startCollector(): Promise<{ endpoint: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      if (req.url === '/v1/traces' && String(req.headers['content-type']).startsWith('application/json')) {
        const sent = JSON.parse(body.toString('utf8')) as OtlpExport;
        for (const { resource, scopeSpans } of sent.resourceSpans ?? []) {
          const attributes = Object.fromEntries((resource?.attributes ?? []).map((a) => [a.key, a.value.stringValue]));
          const service = attributes['service.name'] ?? '?';
          for (const scope of scopeSpans ?? []) {
            for (const span of scope.spans ?? []) spans.push({ ...span, service, resource: attributes });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

// The stack of this suite exports to the collector: the run's stack does not, and its Kafka
// would hand this suite's events to its own notifications.
const possible = replicaStackPossible();
let stack: ReplicaStack;
let collector: Awaited<ReturnType<typeof startCollector>>;

beforeAll(async () => {
  if (!possible) return;
  collector = await startCollector();
  stack = await startSeparateStack({
    name: 'trace-spans',
    offset: shiftedOffset(200),
    // Anonymous coverage requests need no other service.
    services: ['requests', 'notifications'],
    settings: {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      // The SDK's batches leave every 5 s by default; the test waits for them.
      OTEL_BSP_SCHEDULE_DELAY: '200',
      // Spans stand without metrics (an S3 client instrumented only for metrics made none).
      METRICS_PORT: '0',
      // No trace started here is sampled (0%); one a caller sampled stays sampled.
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
      // What an operator adds to every process's spans; `service.name` stays each process's own.
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=trace-test,service.name=not-this-one',
    },
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  collector?.server.close();
}, 60_000);

describe.runIf(possible)('spans of one coverage request, as an OTLP collector receives them', () => {
  it('are one tree: gateway -> requests -> publish -> notifications -> smtp send', async () => {
    const traceId = randomBytes(16).toString('hex');
    const browserSpan = randomBytes(8).toString('hex');
    const res = await through(stack.gateways[0], 'POST', '/api/requests', {
      body: { address: uniqueAddress() },
      headers: { traceparent: `00-${traceId}-${browserSpan}-01` },
    });
    expect(res.status).toBe(201);

    // Each process exports its spans in batches of its own: smtp send is not always the last to arrive.
    const expected = [
      'POST /api/requests/*',
      'POST /api/requests',
      'request-submitted publish',
      'request-submitted process',
      'smtp send',
    ];
    const spans = await eventually(
      async () => {
        const mine = collector.spans.filter((s) => s.traceId === traceId);
        return expected.every((name) => mine.some((s) => s.name === name)) ? mine : undefined;
      },
      30_000,
      "every span of the request's trace, down to notifications' smtp send",
    );
    const one = (service: string, name: string, kind: number) => {
      const found = spans.filter((s) => s.service === service && s.name === name && s.kind === kind);
      expect(found, `${service}: ${name} in ${JSON.stringify(spans.map((s) => [s.service, s.name]))}`).toHaveLength(1);
      return found[0] as ReceivedSpan;
    };
    const gateway = one('gateway', 'POST /api/requests/*', KIND.server);
    const hop = one('gateway', 'POST /api/requests/*', KIND.client);
    const requests = one('requests', 'POST /api/requests', KIND.server);
    const publish = one('requests', 'request-submitted publish', KIND.producer);
    const consume = one('notifications', 'request-submitted process', KIND.consumer);
    const smtp = one('notifications', 'smtp send', KIND.client);
    expect(gateway.parentSpanId).toBe(browserSpan);
    // The gateway's call to the service is a span of its own, between the two servers' spans.
    expect(hop.parentSpanId).toBe(gateway.spanId);
    expect(requests.parentSpanId).toBe(hop.spanId);
    expect(publish.parentSpanId).toBe(requests.spanId);
    expect(consume.parentSpanId).toBe(publish.spanId);
    expect(smtp.parentSpanId).toBe(consume.spanId);
    // The dependency calls under the processes' spans: the request's writes, the email's record.
    expect(
      spans.some((s) => s.service === 'requests' && s.name.startsWith('mongo ') && s.parentSpanId === requests.spanId),
    ).toBe(true);
    expect(
      spans.some(
        (s) => s.service === 'notifications' && s.name.startsWith('mongo ') && s.parentSpanId === consume.spanId,
      ),
    ).toBe(true);

    // Every process's spans carry the operator's resource attributes, under its own name.
    for (const span of spans) expect(span.resource['deployment.environment.name'], span.name).toBe('trace-test');
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['gateway', 'requests', 'notifications']));

    // And every one of the three processes' log lines of the request names the trace.
    for (const name of ['gateway', 'requests', 'notifications']) {
      await eventually(
        async () =>
          readFileSync(join(stack.logDir, `${name}.log`), 'utf8').includes(`"traceId":"${traceId}"`) || undefined,
        10_000,
        `a ${name} log line naming the trace`,
      );
    }
  });

  it('go on through a public list the gateway keeps: the service asked on a miss is in the trace', async () => {
    const traceId = randomBytes(16).toString('hex');
    const browserSpan = randomBytes(8).toString('hex');
    const res = await through(stack.gateways[0], 'GET', '/api/requests/covered', {
      headers: { traceparent: `00-${traceId}-${browserSpan}-01` },
    });
    expect(res.status).toBe(200);
    // Asked of the service by the gateway's public cache, not through the proxy.
    expect(res.headers.get('x-cache')).toBe('miss');
    const spans = await eventually(
      async () => {
        const mine = collector.spans.filter((s) => s.traceId === traceId);
        return mine.some((s) => s.service === 'requests' && s.kind === KIND.server) ? mine : undefined;
      },
      30_000,
      "the requests service's span of the covered list in the caller's trace",
    );
    const one = (service: string, kind: number) => {
      const found = spans.filter((s) => s.service === service && s.kind === kind && s.name.startsWith('GET '));
      expect(found, `${service} ${kind} in ${JSON.stringify(spans.map((s) => [s.service, s.name]))}`).toHaveLength(1);
      return found[0] as ReceivedSpan;
    };
    const gateway = one('gateway', KIND.server);
    const hop = one('gateway', KIND.client);
    const requests = one('requests', KIND.server);
    expect(requests.name).toBe('GET /api/requests/covered');
    expect(gateway.parentSpanId).toBe(browserSpan);
    expect(hop.parentSpanId).toBe(gateway.spanId);
    expect(requests.parentSpanId).toBe(hop.spanId);
  });

  it('are none for a trace the gateway starts unsampled (0%), which the services continue unsampled', async () => {
    const unsampled = await through(stack.gateways[0], 'POST', '/api/requests', { body: { address: uniqueAddress() } });
    expect(unsampled.status).toBe(201);
    const requestId = unsampled.headers.get('x-request-id') ?? 'no request id';
    const gatewayLine = await eventually(
      async () =>
        readFileSync(join(stack.logDir, 'gateway.log'), 'utf8')
          .split('\n')
          .find((line) => line.includes(requestId) && line.includes('"traceId"')),
      10_000,
      "the gateway's line of the unsampled request",
    );
    const traceId = /"traceId":"([0-9a-f]{32})"/.exec(gatewayLine)?.[1] ?? 'none';
    // The service continued the gateway's trace (the forwarded header named it), not a new one.
    await eventually(
      async () =>
        readFileSync(join(stack.logDir, 'requests.log'), 'utf8').includes(`"traceId":"${traceId}"`) || undefined,
      10_000,
      "a requests line naming the gateway's trace",
    );
    // A sampled request after it: once its service span has arrived, so would have the first one's.
    const laterTrace = randomBytes(16).toString('hex');
    const later = await through(stack.gateways[0], 'POST', '/api/requests', {
      body: { address: uniqueAddress() },
      headers: { traceparent: `00-${laterTrace}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(later.status).toBe(201);
    await eventually(
      async () =>
        collector.spans.some((s) => s.traceId === laterTrace && s.service === 'requests' && s.kind === KIND.server) ||
        undefined,
      30_000,
      "the later sampled request's service span",
    );
    // Before: the gateway's span went unrecorded but its forwarded header said "sampled" (flag 01),
    // so the services recorded spans whose parent no collector ever got.
    expect(collector.spans.filter((s) => s.traceId === traceId).map((s) => `${s.service}: ${s.name}`)).toEqual([]);
  });
});
