import { createHook } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { createKafka, createLogger, ensureTopics } from '../src/index.js';

const env = testEnv();
const topic = `kit-idle-${randomUUID().slice(0, 8)}`;
let producer: Producer;

beforeAll(async () => {
  const kafka = createKafka(
    env.kafkaBrokers.split(','),
    'kit-idle-test',
    createLogger({ name: 'kit-idle-test', level: 'silent', format: 'json' }),
  );
  await ensureTopics(kafka, [topic], 1);
  producer = kafka.producer();
  await producer.connect();
});
afterAll(async () => {
  await producer?.disconnect();
});

/** Timers the process creates during `ms` of doing nothing. */
async function timersCreatedWhileIdle(ms: number): Promise<number> {
  let created = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'Timeout') created += 1;
    },
  }).enable();
  await new Promise((resolve) => setTimeout(resolve, ms));
  hook.disable();
  return created;
}

describe('a Kafka client with nothing to send', () => {
  it('does not wake its process every millisecond, and still sends when asked', async () => {
    await producer.send({ topic, messages: [{ value: 'before' }] });
    // Without patches/kafkajs+2.2.4.patch each broker connection re-arms a 1 ms timer forever:
    // hundreds a second. Whether upstream still needs it: src/connections/kafkajs-patch.test.ts.
    expect(await timersCreatedWhileIdle(1000)).toBeLessThan(50);
    const [sent] = await producer.send({ topic, messages: [{ value: 'after' }] });
    expect(sent?.errorCode).toBe(0);
  });
});
