import { Topics } from '@homereport/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { EventTap } from '../../../test/support/events.js';
import { injectingFault, stopKafka } from '../../../test/support/faults.js';
import { pool } from '../../../test/support/pool.mjs';
import { serversPresent } from '../../../test/support/servers.js';
import {
  adminToken,
  allLeads,
  createKey,
  genericLead,
  leadDocId,
  leadSentinels,
  nothingLeftToPublish,
  postLead,
} from './support/leads.js';

// Stops and restarts the local Kafka process; with containers or explicit URLs the broker is
// not ours to stop (as in packages/kit/test/kafka-outage.test.ts).
const env = testEnv();
const ownKafka = serversPresent(
  env.mode === 'local',
  'the leads Kafka outage test stops the local Kafka process, and this run has containers or explicit URLs',
);
const COUNT = 200;

describe.runIf(ownKafka)('when Kafka is away while leads arrive', () => {
  let admin: string;
  beforeAll(async () => {
    admin = (await adminToken()).token;
  });

  it('stores all 200 leads, answers 200 to each, and publishes every event once after Kafka returns', async () => {
    const key = await createKey(admin);
    // The whole stack loses Kafka: its services may rightly log errors meanwhile.
    await injectingFault('Kafka stopped', () => outage(key));
  }, 300_000);

  async function outage(key: Awaited<ReturnType<typeof createKey>>) {
    const kafkaStopped = await stopKafka();
    try {
      const leads = Array.from({ length: COUNT }, () => genericLead());
      const answers = await pool(COUNT, 10, (i) => postLead(leads[i], key.secret));
      expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);

      // Durable before the 200: every lead is there while Kafka is still away.
      const stored = await allLeads(admin, { key_name: key.name, limit: '200' });
      expect(new Set(stored.map((l) => l.lead_id))).toEqual(new Set(leads.map((l) => l.lead_id)));

      await kafkaStopped.restart();

      const tap = await new EventTap([Topics.leadReceived]).start();
      try {
        const ours = () =>
          tap.all<{ key_name: string; lead_id: string }>(Topics.leadReceived, (d) => d.key_name === key.name);
        await eventually(async () => ours().length >= COUNT, 150_000, `${COUNT} lead-received events`);
        // No late duplicate: nothing is left for the relay to publish, and later leads were seen
        // on every partition, so any second copy would be in the tap by now.
        await nothingLeftToPublish(leads.map((l) => leadDocId(key.name, l.lead_id)));
        await leadSentinels(tap, await createKey(admin));
        const ids = ours().map((e) => e.envelope.data.lead_id);
        expect(ids).toHaveLength(COUNT);
        expect(new Set(ids)).toEqual(new Set(leads.map((l) => l.lead_id)));
        expect(new Set(ours().map((e) => e.envelope.id)).size).toBe(COUNT);
      } finally {
        await tap.stop();
      }
    } finally {
      await kafkaStopped.restart();
    }
  }
});
