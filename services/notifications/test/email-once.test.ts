import type { ProcessedEvent } from '@homereport/kit';
import type { Collection } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { emailsTo, waitForEmail } from '../../../test/support/mail.js';
import { useOwnRegistrationTopic } from './support.js';

// An email goes out once per event even when the bookkeeping around the send fails or the event
// arrives twice: the kit's consumer with the real notifications handler for user-registered, on
// a topic and a consumer group of this test's own, against the real servers and SMTP (maildev).
const own = useOwnRegistrationTopic('notifications_email_once_test', 'email-once-test');

/**
 * The claims collection, except that the first write recording an effect on a claim fails as
 * when MongoDB went away just after the SMTP server accepted the email (the write never reached
 * the server). `failed` counts the writes failed so.
 */
function failingFirstEffectRecord(processed: Collection<ProcessedEvent>) {
  const state = { failed: 0 };
  const proxy = new Proxy(processed, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === 'updateOne' || prop === 'updateMany') {
        return async (filter: unknown, update: { $addToSet?: { effects?: unknown } }, options?: unknown) => {
          if (update.$addToSet?.effects !== undefined && state.failed === 0) {
            state.failed++;
            throw Object.assign(new Error('connection closed (test)'), { name: 'MongoNetworkError' });
          }
          return (value as (...args: unknown[]) => Promise<unknown>).call(target, filter, update, options);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { processed: proxy, state };
}

describe('an email sent for an event', () => {
  it('is not sent again when recording it on the claim failed after the SMTP server took it', async () => {
    const { topic, groupId, email, event } = await own.registration('email-record-fails');
    await own.publish(topic, event, 1);
    const { processed, state } = failingFirstEffectRecord(own.processedEvents());
    const consumer = await own.consumer(groupId, topic, { processed, retryBaseMs: 50 });
    try {
      await waitForEmail(email, /Verify your email/, 60_000);
      await eventually(async () => (await own.committedOffset(groupId, topic)) === 1, 30_000, 'the committed offset');
      expect(state.failed).toBe(1);
      // The handler failed once (the record) and was retried: the retry knew the email went out.
      expect(await emailsTo(email)).toHaveLength(1);
      expect(await own.claimOf(groupId, event.id)).toMatchObject({ status: 'done' });
    } finally {
      await consumer.disconnect();
    }
  });

  it('goes out once when the event is delivered twice (an outbox relayed it again after a crash)', async () => {
    const { topic, groupId, email, event } = await own.registration('email-relayed-twice');
    await own.publish(topic, event, 2);
    const consumer = await own.consumer(groupId, topic, { retryBaseMs: 50 });
    try {
      await waitForEmail(email, /Verify your email/, 60_000);
      await eventually(async () => (await own.committedOffset(groupId, topic)) === 2, 30_000, 'the committed offset');
      expect(await emailsTo(email)).toHaveLength(1);
    } finally {
      await consumer.disconnect();
    }
  });

  it('goes out once when two consumer groups sharing their claims both read the event (the urgent lane beside an old process)', async () => {
    const { topic, groupId, email, event } = await own.registration('email-two-groups');
    await own.publish(topic, event, 1);
    const [first, second] = await Promise.all([
      own.consumer(`${groupId}-old`, topic, { claimsGroup: groupId, retryBaseMs: 50 }),
      own.consumer(`${groupId}-urgent`, topic, { claimsGroup: groupId, retryBaseMs: 50 }),
    ]);
    try {
      await waitForEmail(email, /Verify your email/, 60_000);
      // Both groups moved past the event: each read it, and only one sent its email.
      await eventually(
        async () =>
          (await own.committedOffset(`${groupId}-old`, topic)) === 1 &&
          (await own.committedOffset(`${groupId}-urgent`, topic)) === 1,
        30_000,
        'both groups past the event',
      );
      expect(await emailsTo(email)).toHaveLength(1);
      expect(await own.claimOf(groupId, event.id)).toMatchObject({ status: 'done' });
    } finally {
      await Promise.all([first.disconnect(), second.disconnect()]);
    }
  });
});
