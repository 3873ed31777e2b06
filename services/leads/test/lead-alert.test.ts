import { randomUUID } from 'node:crypto';
import { Topics } from '@homereport/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/api.js';
import { EventTap } from '../../../test/support/events.js';
import { allEmails, emailsTo, waitForEmail } from '../../../test/support/mail.js';
import { type CreatedKey, adminToken, createKey, genericLead, googleLead, postLead } from './support/leads.js';

// The stack's notifications service consumes lead-received and writes to the staff inbox
// (STAFF_EMAIL, default staff@homereport.local); maildev shows what it sent.
const STAFF_EMAIL = process.env.STAFF_EMAIL ?? 'staff@homereport.local';

const tap = new EventTap([Topics.leadReceived]);
let key: CreatedKey;
beforeAll(async () => {
  await tap.start();
  key = await createKey((await adminToken()).token);
});
afterAll(() => tap.stop());

/** The staff email that tells of a lead: its own alert, or a digest with leads that came together. */
const staffEmailAbout = (last: string) =>
  eventually(
    async () => (await emailsTo(STAFF_EMAIL)).find((m) => m.text.includes(last)),
    30_000,
    `a staff email about ${last}`,
  );

const uniqueSurname = () => `Lead${randomUUID().slice(0, 8)}`;

describe('when a lead arrives', () => {
  it('staff get a short summary by email: name, email, phone, campaign, source', async () => {
    const last = uniqueSurname();
    const lead = genericLead({ first_name: 'Dana', last_name: last, campaign_id: 'fall-2025' });
    expect((await postLead(lead, key.secret)).status).toBe(200);

    const mail = await waitForEmail(STAFF_EMAIL, new RegExp(`^New lead: Dana ${last}$`));
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(lead.email);
      expect(part).toContain('+1 555-0100');
      expect(part).toContain('fall-2025');
      expect(part).toContain(key.name);
    }
    expect(mail.replyTo?.[0]?.address).toBe(lead.email);
    expect(mail.text).not.toContain(key.secret);
  });

  it('a test lead sends nothing (LEAD_ALERTS_FOR_TEST_LEADS is off)', async () => {
    const testLast = uniqueSurname();
    const test = googleLead(key.secret, {
      is_test: true,
      user_column_data: [
        { column_id: 'FULL_NAME', string_value: `Tess ${testLast}` },
        { column_id: 'EMAIL', string_value: 'tess@example.com' },
      ],
    });
    expect((await postLead(test)).status).toBe(200);
    const testEvent = await tap.waitFor<{ lead_id: string }>(Topics.leadReceived, (d) => d.lead_id === test.lead_id);

    // Sentinels: real leads until one is on the test lead's partition. Notifications handles a
    // partition in order, so once that lead's email is out, any email of the test lead is too.
    const sentinels = await tap.sentinels<{ last_name: string }>(
      Topics.leadReceived,
      async () => {
        const last = uniqueSurname();
        expect((await postLead(genericLead({ first_name: 'Real', last_name: last }), key.secret)).status).toBe(200);
        return (d) => d.last_name === last;
      },
      [testEvent.partition],
    );
    const realLast = sentinels.at(-1)?.envelope.data.last_name ?? '';
    await staffEmailAbout(realLast);
    const about = (await allEmails()).filter((m) => m.subject.includes(testLast) || m.text.includes(testLast));
    expect(about).toEqual([]);
  });

  it('leads that arrive together reach staff in digests, every one of them', async () => {
    const burstKey = await createKey((await adminToken()).token);
    const surnames = Array.from({ length: 30 }, uniqueSurname);
    const answers = await Promise.all(
      surnames.map((last) => postLead(genericLead({ first_name: 'Burst', last_name: last }), burstKey.secret)),
    );
    expect(answers.map((a) => a.status)).toEqual(surnames.map(() => 200));

    const mentioning = await eventually(
      async () => {
        const mails = (await emailsTo(STAFF_EMAIL)).filter((m) => surnames.some((last) => m.text.includes(last)));
        return surnames.every((last) => mails.some((m) => m.text.includes(last))) && mails;
      },
      60_000,
      'every lead of the burst in a staff email',
    );
    // Each lead once, and fewer emails than leads: the consumer handed the burst over in batches.
    for (const last of surnames) expect(mentioning.filter((m) => m.text.includes(`Burst ${last}`))).toHaveLength(1);
    expect(mentioning.length).toBeLessThan(30);
    const digests = mentioning.filter((m) => / new leads: /.test(m.subject));
    expect(digests.length).toBeGreaterThan(0);
    for (const digest of digests) {
      expect(digest.replyTo ?? []).toEqual([]);
      expect(digest.text).toContain(burstKey.name);
    }
  }, 90_000);
});
