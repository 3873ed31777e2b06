import { randomUUID } from 'node:crypto';
import { Topics, type ZipWatchAlerted } from '@homereport/contracts';
import { createEvent } from '@homereport/kit';
import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, uniqueEmail } from '../../../test/support/api.js';
import { testKafka } from '../../../test/support/events.js';
import { emailsTo } from '../../../test/support/mail.js';

// Events published as the zipcodes service's outbox would, straight to Kafka; emails read in maildev.

const kafka = testKafka('zip-alerts-test');
let producer: Producer;
beforeAll(async () => {
  producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
});
afterAll(async () => {
  await producer?.disconnect();
});

/** One alert as zipcodes records it: its id fixed per import and watcher. */
async function publish(data: ZipWatchAlerted): Promise<void> {
  const { key, ...envelope } = {
    ...createEvent(Topics.zipWatchAlerted, data, { source: 'zip-alerts-test', key: data.userId }),
    id: `zip-watch-alert:${data.importId}:${data.userId}`,
  };
  await producer.send({ topic: envelope.type, acks: -1, messages: [{ key, value: JSON.stringify(envelope) }] });
}

describe('zip-watch-alerted', () => {
  it('emails the watcher once per event, even delivered twice, with each change as old -> new', async () => {
    const userId = randomUUID();
    const email = uniqueEmail('zipalert');
    const first: ZipWatchAlerted = {
      importId: randomUUID(),
      userId,
      email,
      zips: [
        {
          zipCode: '44113',
          place: 'Cleveland, OH',
          changes: [
            { measure: 'price', from: 247_000, to: 255_500 },
            { measure: 'rent', from: 1810, to: null },
            { measure: 'appreciation', from: 0.086, to: 0.05 },
            { measure: 'risk', from: 'medium', to: 'high' },
          ],
        },
      ],
    };
    await publish(first);
    await publish(first); // a replay: same id
    // Then another import's alert on the same partition: once it is in, the replay was handled.
    const second: ZipWatchAlerted = {
      importId: randomUUID(),
      userId,
      email,
      zips: [
        { zipCode: '78704', place: 'Austin, TX', changes: [{ measure: 'risk', from: 'low', to: 'medium' }] },
        { zipCode: '94027', place: 'Atherton, CA', changes: [{ measure: 'price', from: 1, to: 2 }] },
      ],
    };
    await publish(second);

    const mails = await eventually(
      async () => {
        const all = await emailsTo(email);
        return all.some((m) => m.subject === '2 ZIP codes you watch changed') ? all : undefined;
      },
      // The first event of a topic new to the group can wait for a rebalance on a busy machine.
      60_000,
      'the second alert',
    );
    const firstMails = mails.filter((m) => m.subject.startsWith('ZIP 44113 changed'));
    expect(firstMails).toHaveLength(1);
    const [mail] = firstMails;
    expect(mail?.subject).toBe(
      'ZIP 44113 changed: median sale price, average rent (2 bedrooms), appreciation (1 year), risk level',
    );
    const text = mail?.text ?? '';
    expect(text).toContain('44113 (Cleveland, OH)');
    expect(text).toMatch(/\$247,000 -> \$255,500/);
    expect(text).toMatch(/\$1,810\/month -> not given/);
    expect(text).toMatch(/8\.6% -> 5\.0%/);
    expect(text).toMatch(/medium -> high/);
    expect(text).toContain('/zip/44113');
    expect(mail?.replyTo?.[0]?.address).toMatch(/^support@/);
    expect(mails).toHaveLength(2);
  });
});
