import { randomUUID } from 'node:crypto';
import { Topics } from '@homereport/contracts';
import { type Consumer, Kafka, logLevel } from 'kafkajs';
import { eventually } from '../../../../test/support/api.js';
import { testEnv } from '../../../../test/support/env.js';

export interface SeenEvent<T = Record<string, unknown>> {
  topic: string;
  key: string | null;
  headers: Record<string, string>;
  envelope: { id: string; type: string; occurredAt: string; source: string; correlationId: string; data: T };
}

/**
 * Reads what the auth service published, from the start of each topic, with its own consumer
 * group. Tokens for the tests come from here (not from the emails, which another service sends),
 * and it proves the outbox relay really published the events.
 */
export class EventTap {
  readonly seen: SeenEvent[] = [];
  private consumer: Consumer | undefined;

  async start(topics: string[] = [Topics.userRegistered, Topics.userVerified, Topics.passwordResetRequested]) {
    const kafka = new Kafka({
      clientId: 'auth-tests',
      brokers: testEnv().kafkaBrokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    this.consumer = kafka.consumer({
      groupId: `auth-tests-${randomUUID()}`,
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
  waitFor<T = Record<string, unknown>>(topic: string, match: (data: T) => boolean, nth = 1): Promise<SeenEvent<T>> {
    return eventually(async () => this.all<T>(topic, match)[nth - 1], 30_000, `event ${nth} on ${topic}`);
  }
}

/** The token in a link such as `<PUBLIC_URL>/verify-email?token=...`. */
export function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error('link without a token');
  return token;
}
