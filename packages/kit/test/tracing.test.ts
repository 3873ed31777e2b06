import { randomUUID } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { OutboxRelay, createEvent, createLogger, createServiceApp, ensureTopics, startConsumer } from '../src/index.js';
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
    let consumer: Consumer | undefined;
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
