import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import {
  type EventConsumer,
  OutboxRelay,
  batchHandler,
  createEvent,
  createLogger,
  createServiceApp,
  ensureTopics,
  loggerOptions,
  startConsumer,
} from '../src/index.js';
import { continueTrace, runInTrace } from '../src/tracing/context.js';
import { traceDependency } from '../src/tracing/dependencies.js';
import { startTracing, stopTracing } from '../src/tracing/export.js';
import { useKitInfrastructure } from './kit-infrastructure.js';

// Tracing on before the connections open, so MongoDB commands are monitored for spans.
const exporter = new InMemorySpanExporter();
beforeAll(() => startTracing('kit-trace-test', { processor: new SimpleSpanProcessor(exporter) }));
afterAll(stopTracing);
const kit = useKitInfrastructure('kit-trace-test');

const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;

describe('one trace across HTTP, the outbox, Kafka and a consumer', () => {
  it('holds the server span, the MongoDB write, the publish and the consume, each a child of the one before', async () => {
    const infra = kit();
    const db = infra.mongo.db!;
    const topic = `trace-test-${randomUUID().slice(0, 8)}`;
    const collection = `trace_test_${randomUUID().slice(0, 8)}`;
    await ensureTopics(infra.kafka, [topic], 1);
    const logger = createLogger({ name: 'kit-trace-test', level: 'silent', format: 'json' });
    const relay = new OutboxRelay(db, [collection], infra.publisher, logger);
    relay.start();
    const app = await createServiceApp({ name: 'kit-trace-test', logger });
    // A service's write: the document and its event in one write, published by the relay.
    app.post('/things', async (_req, reply) => {
      const id = randomUUID();
      const event = createEvent(topic, { id }, { source: 'kit-trace-test', key: id });
      await relay.record(collection, id, () =>
        db.collection(collection).insertOne({ _id: id as never, outbox: [event] }),
      );
      return reply.code(201).send({ id });
    });
    const handled: string[] = [];
    let consumer: EventConsumer | undefined;
    try {
      consumer = await startConsumer({
        kafka: infra.kafka,
        groupId: `trace-test-${randomUUID().slice(0, 8)}`,
        processed: db.collection('processed_events'),
        publisher: infra.publisher,
        logger,
        handlers: {
          [topic]: async (event) => {
            handled.push((event.data as { id: string }).id);
          },
        },
      });
      const traceId = randomUUID().replaceAll('-', '');
      const browserSpan = 'b7ad6b7169203331';
      const res = await app.inject({
        method: 'POST',
        url: '/things',
        headers: { traceparent: `00-${traceId}-${browserSpan}-01` },
      });
      expect(res.statusCode).toBe(201);
      const id = res.json<{ id: string }>().id;
      await eventually(async () => handled.includes(id) || undefined, 60_000, 'the event handled');
      const spans = await eventually(
        async () => {
          const mine = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
          return mine.some((s) => s.kind === SpanKind.CONSUMER) ? mine : undefined;
        },
        10_000,
        'the consumer span',
      );
      const server = spans.find((s) => s.kind === SpanKind.SERVER);
      const publish = spans.find((s) => s.kind === SpanKind.PRODUCER);
      const consume = spans.find((s) => s.kind === SpanKind.CONSUMER);
      const insert = spans.find((s) => s.name === 'mongo insert');
      expect(server?.name).toBe('POST /things');
      expect(parentOf(server)).toBe(browserSpan);
      expect(insert?.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(insert)).toBe(server?.spanContext().spanId);
      expect(publish?.name).toBe(`${topic} publish`);
      expect(parentOf(publish)).toBe(server?.spanContext().spanId);
      expect(consume?.name).toBe(`${topic} process`);
      expect(parentOf(consume)).toBe(publish?.spanContext().spanId);
      expect(consume?.attributes.outcome).toBe('handled');
    } finally {
      await consumer?.disconnect();
      await relay.stop();
      await app.close();
    }
  });
});

describe("a batching handler's call", () => {
  it("goes on in its first event's trace, links the others', and its lines name every event's trace and request", async () => {
    const infra = kit();
    const topic = `trace-batch-${randomUUID().slice(0, 8)}`;
    await ensureTopics(infra.kafka, [topic], 1);
    // Three requests' events, sent before the consumer starts: its first fetch holds them all.
    const traces = [0, 1, 2].map(() => continueTrace(undefined));
    const sent = traces.map((trace, i) =>
      runInTrace(trace, () =>
        createEvent(topic, { i }, { source: 'kit-trace-test', key: 'k', correlationId: `req-${i}` }),
      ),
    );
    await infra.publisher.publish(sent);
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logger = pino(loggerOptions({ name: 'kit-trace-test', level: 'info', format: 'json' }), sink);
    const calls: number[] = [];
    let consumer: EventConsumer | undefined;
    try {
      consumer = await startConsumer({
        kafka: infra.kafka,
        groupId: `trace-batch-${randomUUID().slice(0, 8)}`,
        processed: infra.mongo.db!.collection('processed_events'),
        publisher: infra.publisher,
        logger,
        handlers: {
          [topic]: batchHandler(async (events, log) => {
            calls.push(events.length);
            await traceDependency('smtp', 'send', async () => undefined);
            log.info('digest sent');
          }),
        },
      });
      await eventually(async () => (calls.length > 0 ? calls : undefined), 60_000, 'the batch handled');
      expect(calls).toEqual([3]);
      const [first, ...others] = traces.map((t) => t.traceId) as [string, string, string];
      const spans = await eventually(
        async () => {
          const all = exporter.getFinishedSpans();
          return all.some((s) => s.name === 'smtp send' && s.spanContext().traceId === first) ? all : undefined;
        },
        10_000,
        'the smtp span in the first trace',
      );
      const publishOf = (traceId: string) =>
        spans.find((s) => s.kind === SpanKind.PRODUCER && s.spanContext().traceId === traceId);
      const batch = spans.find((s) => s.kind === SpanKind.CONSUMER && s.name === `${topic} process`);
      const smtp = spans.find((s) => s.name === 'smtp send' && s.spanContext().traceId === first);
      expect(batch?.spanContext().traceId).toBe(first);
      expect(parentOf(batch)).toBe(publishOf(first)?.spanContext().spanId);
      expect(batch?.links.map((l) => l.context.spanId)).toEqual(others.map((t) => publishOf(t)?.spanContext().spanId));
      expect(parentOf(smtp)).toBe(batch?.spanContext().spanId);

      const batchId = batch?.spanContext().spanId;
      const taken = lines.filter((l) => l.msg === 'event taken into a batch');
      expect(taken.map((l) => [l.traceId, l.reqId, l.batch])).toEqual(
        traces.map((t, i) => [t.traceId, `req-${i}`, batchId]),
      );
      expect(lines.find((l) => l.msg === 'digest sent')).toMatchObject({ traceId: first, batch: batchId, events: 3 });
    } finally {
      await consumer?.disconnect();
    }
  });
});
