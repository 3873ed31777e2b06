import { randomUUID } from 'node:crypto';
import { type Admin, ConfigResourceTypes } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import {
  Infrastructure,
  type ServiceApp,
  createEvent,
  createLogger,
  createServiceApp,
  ensureTopics,
} from '../src/index.js';
import { capturingLogger } from './capturing-logger.js';

// kafkajs restarts a crashed consumer by itself only after a retriable error; after any other it
// leaves the group and stays stopped. Infrastructure.startConsumer hears that CRASH, warns naming
// the error and starts the consumer again. Here the broker itself provokes one: a topic whose
// `compression.type` is zstd stores every record zstd-compressed, whatever the producer sent, and
// kafkajs has no zstd codec (none is registered in this repository), so reading such a record
// fails with KafkaJSNotImplemented, which kafkajs' runner bails on: CRASH, restart false. Once the
// record is gone (deleted by an operator, as one would with a poison record), the consumer
// started again by the kit goes on consuming, in the same process.

/** Sets the topic's `compression.type`, and waits until the broker says it holds. */
async function setCompression(admin: Admin, topic: string, value: string): Promise<void> {
  await admin.alterConfigs({
    validateOnly: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: 'compression.type', value }] }],
  });
  await eventually(
    async () => {
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['compression.type'] }],
      });
      return resources[0]?.configEntries[0]?.configValue === value;
    },
    10_000,
    `compression.type=${value} on ${topic}`,
  );
}

describe('a consumer kafkajs stops after a non-retriable error', () => {
  const env = testEnv();
  const topic = `crash-restart-${randomUUID().slice(0, 8)}`;
  const groupId = `crash-restart-${randomUUID().slice(0, 8)}`;
  const { lines, logger } = capturingLogger('crash-test', 'info');
  let infra: Infrastructure;
  let app: ServiceApp;
  let admin: Admin;

  beforeAll(async () => {
    infra = await Infrastructure.open(
      'crash-restart-test',
      { MONGO_URL: env.mongoUrl, KAFKA_BROKERS: env.kafkaBrokers },
      { mongoDb: 'kit_test', kafkaTopics: [] },
      logger,
    );
    // Closing the app stops the consumer (whichever the kit started last) and the connections.
    app = await createServiceApp({
      name: 'crash-restart-test',
      logger: createLogger({ name: 'crash-restart-test', level: 'silent', format: 'json' }),
    });
    await infra.attach(app);
    await ensureTopics(infra.kafka, [topic], 1);
    admin = infra.kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.disconnect();
    await app?.close();
  });

  it('is started again by the kit, which warns naming the error, and goes on consuming', async () => {
    const handled: string[] = [];
    infra.startConsumer(groupId, {
      [topic]: async (event) => {
        handled.push(event.id);
      },
    });
    const publish = async (n: number) => {
      const event = createEvent(topic, { n }, { source: 'crash-restart-test', key: 'k' });
      await infra.publisher.publish([event]);
      return event.id;
    };

    // Consuming: the kit's CRASH listener is on the consumer that handled this.
    const before = await publish(1);
    await eventually(async () => handled.includes(before), 30_000, 'the first event to be handled');

    // The broker now stores the topic's records zstd-compressed; reading the next one crashes
    // the consumer, and every consumer the kit starts again, until the record is gone.
    await setCompression(admin, topic, 'zstd');
    const poison = await publish(2);
    const crashes = () =>
      lines.filter((l) => l.level === 40 && l.msg.startsWith('consumer stopped by kafkajs; starting it again'));
    // Three crashes in a row: the kit waits longer before each restart (0.5, 1, 2 s), so a record
    // that crashes every fetch does not restart the consumer in a tight loop.
    await eventually(async () => crashes().length >= 3, 30_000, 'three crash warnings');
    expect(crashes()[0]?.msg).toBe(
      'consumer stopped by kafkajs; starting it again in 500 ms: KafkaJSNotImplemented: ZSTD compression not implemented',
    );
    expect(crashes()[0]?.groupId).toBe(groupId);
    expect(
      crashes()
        .slice(0, 3)
        .map((l) => l.delayMs),
    ).toEqual([500, 1000, 2000]);
    expect(handled).not.toContain(poison);

    // What an operator does about a poison record: stop compressing, delete it.
    await setCompression(admin, topic, 'producer');
    const [end] = await admin.fetchTopicOffsets(topic);
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: end?.high ?? '-1' }] });

    // No restart of the process: the consumer the kit started again handles a new event.
    const after = await publish(3);
    await eventually(async () => handled.includes(after), 30_000, 'the event published after the crash');
    expect(handled).toEqual([before, after]);
  });
});
