import { describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { type EventConsumer, GROUP_TIMING, createEvent, startConsumer } from '../src/index.js';
import { freshTopic, kitConsumer, useKitInfrastructure } from './kit-infrastructure.js';

const kit = useKitInfrastructure('kit-consumer-session-test');

// The consumer's session is short (group-timing.ts), so that a killed process's replacement
// joins its group within seconds. A live consumer must keep its place however long a handler
// takes: it heartbeats on its own while a batch is handled. Without that, a handler longer than
// the session drops the member, the group rebalances and the event is handled by a member that
// joined again.
describe('the consumer with a short session', () => {
  it('keeps its place in the group while a handler runs longer than the session', async () => {
    const infra = kit();
    const { topic, groupId } = await freshTopic(infra, 'session-test');
    const handled: string[] = [];
    let joins = 0;
    let consumer: EventConsumer | undefined;
    try {
      consumer = await startConsumer({
        ...kitConsumer(infra),
        groupId,
        handlers: {
          [topic]: async (event) => {
            // Longer than the session by half again, awaiting nothing kafkajs sees.
            await new Promise((r) => setTimeout(r, GROUP_TIMING.sessionTimeout * 1.5));
            handled.push(event.id);
          },
        },
      });
      const { kafkaConsumer } = consumer;
      kafkaConsumer.on(kafkaConsumer.events.GROUP_JOIN, () => {
        joins += 1;
      });
      // Joined before the event goes out: every later join is a rebalance.
      await eventually(
        async () => joins > 0 || (await kafkaConsumer.describeGroup())?.state === 'Stable',
        60_000,
        'the join',
      );
      const joinsBefore = joins;
      const event = createEvent(topic, { n: 1 }, { source: 'test', key: 'k' });
      await infra.publisher.publish([event]);
      await eventually(async () => handled.includes(event.id), 60_000, 'the slow event to be handled');
      expect(handled).toEqual([event.id]);
      expect(joins).toBe(joinsBefore);
    } finally {
      await consumer?.disconnect();
    }
  }, 90_000);
});
