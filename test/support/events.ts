import { randomUUID } from 'node:crypto';
import { type Consumer, Kafka, logLevel } from 'kafkajs';
import { eventually } from './api.js';
import { testEnv } from './env.js';

export interface SeenEvent<T = Record<string, unknown>> {
  topic: string;
  key: string | null;
  headers: Record<string, string>;
  envelope: { id: string; type: string; occurredAt: string; source: string; correlationId: string; data: T };
}

/**
 * Reads what was published on `topics`, from the start of each, with a consumer group of its
 * own: proof that an outbox relay really published, and how tests get at what events carry.
 */
export class EventTap {
  readonly seen: SeenEvent[] = [];
  private consumer: Consumer | undefined;

  constructor(private readonly topics: string[]) {}

  async start() {
    const topics = this.topics;
    const kafka = new Kafka({
      clientId: 'event-tap',
      brokers: testEnv().kafkaBrokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    this.consumer = kafka.consumer({
      groupId: `event-tap-${randomUUID()}`,
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ topic, message }) => {
        const headers = Object.fromEntries(
          Object.entries(message.headers ?? {}).map(([k, v]) => [
            k,
            Buffer.isBuffer(v) ? v.toString('utf8') : String(v),
          ]),
        );
        this.seen.push({
          topic,
          key: message.key?.toString('utf8') ?? null,
          headers,
          envelope: JSON.parse(message.value?.toString('utf8') ?? 'null'),
        });
      },
    });
    return this;
  }

  async stop() {
    await this.consumer?.disconnect();
  }

  all<T = Record<string, unknown>>(topic: string, match: (data: T) => boolean = () => true): SeenEvent<T>[] {
    return (this.seen as SeenEvent<T>[]).filter((e) => e.topic === topic && match(e.envelope.data));
  }

  /** Waits for the `nth` (1-based) event on `topic` whose data matches. */
  waitFor<T = Record<string, unknown>>(
    topic: string,
    match: (data: T) => boolean,
    nth = 1,
    timeoutMs = 30_000,
  ): Promise<SeenEvent<T>> {
    return eventually(async () => this.all<T>(topic, match)[nth - 1], timeoutMs, `event ${nth} on ${topic}`);
  }
}
