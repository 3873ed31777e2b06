import { effectsInMemory } from '@homereport/kit';
import type { Mailer, OutgoingMail, SentEmail, SentEmails } from './ports.js';

/**
 * The Mailer and SentEmails ports, and the kit's claim effects, kept in memory, for unit tests of
 * what is sent when (passing the same `effects` again is the kit retrying the event). A send
 * for which `fails(mail, attempt)` says so throws, as a refused SMTP send does; `attempt` counts
 * every send, failed ones included, from 1.
 */
export function inMemoryMail(fails: (mail: OutgoingMail, attempt: number) => boolean = () => false) {
  const delivered: OutgoingMail[] = [];
  const records: SentEmail[] = [];
  let attempts = 0;
  const mailer: Mailer = {
    async send(mail) {
      attempts += 1;
      if (fails(mail, attempts)) throw new Error('SMTP said no');
      delivered.push(mail);
      return { messageId: `<${delivered.length}@test>` };
    },
    close() {},
  };
  const sent: SentEmails = {
    record: async (r) => {
      records.push(r);
    },
    recordMany: async (rs) => {
      records.push(...rs);
    },
  };
  return { mailer, sent, effects: effectsInMemory(), delivered, records };
}
