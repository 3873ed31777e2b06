import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../infra/local/servers.mjs';
import { eventually } from '../../../test/support/api.js';
import { emailsTo, waitForEmail } from '../../../test/support/mail.js';
import { useOwnRegistrationTopic } from './support.js';

// The kit's consumer with the real notifications handler for user-registered, on a topic and a
// consumer group of this test's own (so the stack's notifications service does not see it).
const DB = 'notifications_crash_test';
const LEASE_MS = 3000;
const own = useOwnRegistrationTopic(DB, 'crash-test');
const { env } = own;

describe('a notifications process killed after claiming an event and before sending', () => {
  it('still yields exactly one email once a consumer of its group runs again', async () => {
    const { topic, groupId, email, event } = await own.registration('crash');
    await own.publish(topic, event);

    const victim = spawn(
      process.execPath,
      ['--import', 'tsx', 'services/notifications/test/fixtures/claim-and-hang.ts'],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          MONGO_URL: env.mongoUrl,
          MONGO_DB: DB,
          KAFKA_BROKERS: env.kafkaBrokers,
          GROUP_ID: groupId,
          TOPIC: topic,
          CLAIM_LEASE_MS: String(LEASE_MS),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const claimed = new Promise<void>((resolve, reject) => {
      createInterface({ input: victim.stdout }).on('line', (line) => {
        if (line === `claimed ${event.id}`) resolve();
      });
      victim.once('exit', (code) => reject(new Error(`the victim exited (${code}) before claiming`)));
    });
    try {
      await claimed;
      expect(await own.claimOf(groupId, event.id)).toMatchObject({ status: 'processing' });
    } finally {
      victim.kill('SIGKILL');
    }

    const consumer = await own.consumer(groupId, topic, { claimLeaseMs: LEASE_MS });
    try {
      const mail = await waitForEmail(email, /Verify your email/, 60_000);
      expect(mail.text).toContain('/verify-email?token=crash-token');
      // Positive signal that the consumer is done with the message: its offset is committed.
      await eventually(async () => (await own.committedOffset(groupId, topic)) === 1, 30_000, 'the committed offset');
      expect(await emailsTo(email)).toHaveLength(1);
      expect(await own.claimOf(groupId, event.id)).toMatchObject({ status: 'done' });
    } finally {
      await consumer.disconnect();
    }
  });
});
