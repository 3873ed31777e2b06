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

/** One span as OTLP/HTTP JSON carries it (ids in hex), with its process's `service.name`. */
interface ReceivedSpan {
  service: string;
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
          const service = resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
          for (const scope of scopeSpans ?? []) for (const span of scope.spans ?? []) spans.push({ ...span, service });
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

    const spans = await eventually(
      async () => {
        const mine = collector.spans.filter((s) => s.traceId === traceId);
        return mine.some((s) => s.name === 'smtp send') ? mine : undefined;
      },
      30_000,
      "notifications' smtp send span in the request's trace",
    );
    const one = (service: string, name: string, kind: number) => {
      const found = spans.filter((s) => s.service === service && s.name === name && s.kind === kind);
      expect(found, `${service}: ${name} in ${JSON.stringify(spans.map((s) => [s.service, s.name]))}`).toHaveLength(1);
      return found[0] as ReceivedSpan;
    };
    const gateway = one('gateway', 'POST /api/requests/*', KIND.server);
    const requests = one('requests', 'POST /api/requests', KIND.server);
    const publish = one('requests', 'request-submitted publish', KIND.producer);
    const consume = one('notifications', 'request-submitted process', KIND.consumer);
    const smtp = one('notifications', 'smtp send', KIND.client);
    expect(gateway.parentSpanId).toBe(browserSpan);
    expect(requests.parentSpanId).toBe(gateway.spanId);
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
});
