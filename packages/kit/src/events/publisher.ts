import type { Kafka, Producer } from 'kafkajs';
import { loadKafkajs } from '../connections/kafka.js';
import type { Logger } from '../logger.js';
import { timeDependency } from '../metrics/dependencies.js';
import { eventsPublished } from '../metrics/registry.js';
import { endPublishSpans, startPublishSpans, traceparentHeader } from '../tracing/kafka.js';
import { outsideWork } from '../work-context.js';
import type { OutboxEntry } from './envelope.js';

/**
 * A producer that survives Kafka going away: a failed send drops the connection so the next
 * send reconnects, and the caller (the outbox relay) keeps the events until a send succeeds.
 */
export class EventPublisher {
  private producer: Producer | null = null;
  private connecting: Promise<Producer> | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly logger: Logger,
  ) {}

  async publish(events: OutboxEntry[]): Promise<void> {
    if (events.length === 0) return;
    const producer = await this.connected();
    const byTopic = new Map<string, OutboxEntry[]>();
    for (const e of events) byTopic.set(e.type, [...(byTopic.get(e.type) ?? []), e]);
    const count = (outcome: 'ok' | 'error') => {
      for (const [topic, list] of byTopic) eventsPublished.inc({ topic, outcome }, list.length);
    };
    const spans = startPublishSpans(events);
    try {
      await timeDependency('kafka', 'send', () =>
        producer.sendBatch({
          acks: -1,
          topicMessages: [...byTopic].map(([topic, list]) => ({
            topic,
            messages: list.map((e) => {
              const { key, ...envelope } = e;
              return {
                key,
                value: JSON.stringify(envelope),
                headers: {
                  'x-request-id': e.correlationId,
                  'event-id': e.id,
                  'event-type': e.type,
                  ...traceparentHeader(spans, e),
                },
              };
            }),
          })),
        }),
      );
      count('ok');
      endPublishSpans(spans);
    } catch (err) {
      count('error');
      endPublishSpans(spans, err);
      await this.reset();
      throw err;
    }
  }

  /** Sends raw messages (dead letters) with the same reconnect behaviour. */
  async sendRaw(
    topic: string,
    messages: { key?: Buffer | string | null; value: Buffer | string | null; headers?: Record<string, string> }[],
  ) {
    const producer = await this.connected();
    try {
      await producer.send({ topic, acks: -1, messages });
    } catch (err) {
      await this.reset();
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.reset();
  }

  private async connected(): Promise<Producer> {
    if (this.producer) return this.producer;
    // Opened by the first send, often within a request: outside its work, so the connection's
    // line and kafkajs's sockets and timers carry no request's trace.
    this.connecting ??= outsideWork(async () => {
      const producer = this.kafka.producer({
        allowAutoTopicCreation: false,
        retry: { retries: 2 },
        createPartitioner: loadKafkajs().Partitioners.DefaultPartitioner,
      });
      try {
        await producer.connect();
      } catch (err) {
        await producer.disconnect().catch(() => undefined);
        throw err;
      }
      this.producer = producer;
      this.logger.info('event producer connected');
      return producer;
    }).finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async reset(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    await producer?.disconnect().catch(() => undefined);
  }
}
