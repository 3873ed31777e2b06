import { randomUUID } from 'node:crypto';
import { type Consumer, Kafka, logLevel } from 'kafkajs';
import { eventually } from './api.js';
import { testEnv } from './env.js';

export interface SeenEvent<T = Record<string, unknown>> {
  topic: string;
  partition: number;
  key: string | null;
  headers: Record<string, string>;
  envelope: { id: string; type: string; occurredAt: string; source: string; correlationId: string; data: T };
}

/** A kafkajs client of the run's Kafka, silent (tests read what they need, not its logs). */
export function testKafka(clientId = 'test'): Kafka {
  return new Kafka({ clientId, brokers: testEnv().kafkaBrokers.split(','), logLevel: logLevel.NOTHING });
}

/**
 * Reads what was published on `topics`, from the start of each, with a consumer group of its
 * own: proof that an outbox relay really published, and how tests get at what events carry.
 */
export class EventTap {
  readonly seen: SeenEvent[] = [];
  private consumer: Consumer | undefined;
  private kafka: Kafka | undefined;

  constructor(private readonly topics: string[]) {}

  async start() {
    const topics = this.topics;
    const kafka = testKafka('event-tap');
    this.kafka = kafka;
    this.consumer = kafka.consumer({
      groupId: `event-tap-${randomUUID()}`,
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const headers = Object.fromEntries(
          Object.entries(message.headers ?? {}).map(([k, v]) => [
            k,
            Buffer.isBuffer(v) ? v.toString('utf8') : String(v),
          ]),
        );
        this.seen.push({
          topic,
          partition,
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

  /** The partitions of `topic`. */
  async partitions(topic: string): Promise<number[]> {
    if (!this.kafka) throw new Error('EventTap.partitions before start()');
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return (topics[0]?.partitions ?? []).map((p) => p.partitionId);
    } finally {
      await admin.disconnect();
    }
  }

  /**
   * A sentinel barrier, so "no such event came" is a proof and not a guess about time: Kafka
   * keeps order within a partition only, so once the tap has seen a later event on the partition
   * an unwanted event would use, that event would have been seen too. `cause` makes one new event
   * and returns a matcher for it; it runs until a caused event was seen on each of `partitions`
   * (every partition of the topic by default: an unwanted event's key may be unknown). Keys spread
   * over partitions by hash, so a few causes cover them. Returns the caused events, in order.
   */
  async sentinels<T = Record<string, unknown>>(
    topic: string,
    cause: () => Promise<(data: T) => boolean>,
    partitions?: number[],
    maxCauses = 40,
  ): Promise<SeenEvent<T>[]> {
    const wanted = new Set(partitions ?? (await this.partitions(topic)));
    if (wanted.size === 0) throw new Error(`no partitions of ${topic} to put a sentinel on`);
    const caused: SeenEvent<T>[] = [];
    while (wanted.size > 0) {
      if (caused.length >= maxCauses)
        throw new Error(`${maxCauses} sentinels on ${topic} never reached partitions ${[...wanted].join(', ')}`);
      const seen = await this.waitFor<T>(topic, await cause());
      caused.push(seen);
      wanted.delete(seen.partition);
    }
    return caused;
  }
}
