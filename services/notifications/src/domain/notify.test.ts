import { describe, expect, it } from 'vitest';
import { sendContactEmails, sendVerification } from './notify.js';
import type { Mailer, OutgoingMail, SentEmail, SentEmails } from './ports.js';

function fakes(options: { failOn?: (mail: OutgoingMail) => boolean } = {}) {
  const delivered: OutgoingMail[] = [];
  const records: SentEmail[] = [];
  const mailer: Mailer = {
    async send(mail) {
      if (options.failOn?.(mail)) throw new Error('SMTP said no');
      delivered.push(mail);
      return { messageId: `<${delivered.length}@test>` };
    },
    close() {},
  };
  const sent: SentEmails = {
    wasSent: async (eventId, kind) => records.some((r) => r.eventId === eventId && r.kind === kind),
    record: async (r) => {
      records.push(r);
    },
  };
  const deps = {
    mailer,
    sent,
    brand: { publicUrl: 'https://hr.example', supportEmail: 'support@hr.example' },
    staffEmail: 'staff@hr.example',
    supportEmail: 'support@hr.example',
  };
  return { deps, delivered, records };
}

const contact = { messageId: 'm1', name: 'Ann', email: 'ann@example.test', subject: 'Hi', message: 'Hello' };

describe('sending the emails an event causes', () => {
  it('a contact message sends the staff copy (reply-to the sender) and the acknowledgement (reply-to support)', async () => {
    const { deps, delivered, records } = fakes();
    await sendContactEmails(deps, 'e1', contact);
    expect(delivered.map((m) => [m.to.address, m.replyTo?.address])).toEqual([
      ['staff@hr.example', 'ann@example.test'],
      ['ann@example.test', 'support@hr.example'],
    ]);
    expect(records.map((r) => [r.eventId, r.kind, r.to])).toEqual([
      ['e1', 'contact-staff', 'staff@hr.example'],
      ['e1', 'contact-acknowledgement', 'ann@example.test'],
    ]);
  });

  it('when the second email fails, the failure propagates and the retry sends only the missing one', async () => {
    let failing = true;
    const { deps, delivered } = fakes({ failOn: (m) => failing && m.to.address === 'ann@example.test' });
    await expect(sendContactEmails(deps, 'e2', contact)).rejects.toThrow('SMTP said no');
    failing = false;
    const outcomes = await sendContactEmails(deps, 'e2', contact);
    expect(outcomes).toEqual([
      { kind: 'contact-staff', sent: false },
      { kind: 'contact-acknowledgement', sent: true },
    ]);
    expect(delivered.map((m) => m.to.address)).toEqual(['staff@hr.example', 'ann@example.test']);
  });

  it('a verification link that is not http(s) is refused without sending, and the error does not repeat the link', async () => {
    const { deps, delivered } = fakes();
    const attempt = sendVerification(deps, 'e3', {
      userId: 'u',
      email: 'u@example.test',
      verifyUrl: 'javascript:alert(1)',
    });
    await expect(attempt).rejects.toThrow(/^verifyUrl is not an http\(s\) link$/);
    expect(delivered).toHaveLength(0);
  });
});
