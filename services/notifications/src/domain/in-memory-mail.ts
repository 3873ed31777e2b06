import type { Mailer, OutgoingMail, SentEmail, SentEmails } from './ports.js';

/**
 * The Mailer and SentEmails ports kept in memory, for unit tests of what is sent when. A send
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
  const recorded = (eventId: string, kind: string) => records.some((r) => r.eventId === eventId && r.kind === kind);
  const sent: SentEmails = {
    wasSent: async (eventId, kind) => recorded(eventId, kind),
    record: async (r) => {
      records.push(r);
    },
    recordMany: async (rs) => {
      records.push(...rs);
    },
    sentAmong: async (ids, kind) => new Set(ids.filter((id) => recorded(id, kind))),
  };
  return { mailer, sent, delivered, records };
}
