import { randomBytes } from 'node:crypto';
import { sealContext } from '@homereport/contracts';
import { sealSecret } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { inMemoryMail } from './in-memory-mail.js';
import { linkWithToken, sendContactEmails, sendPasswordReset, sendVerification } from './notify.js';
import type { OutgoingMail } from './ports.js';

function fakes(options: { failOn?: (mail: OutgoingMail) => boolean } = {}) {
  const { mailer, sent, effects, delivered, records } = inMemoryMail((mail) => options.failOn?.(mail) ?? false);
  const deps = {
    eventSecretKey: KEY,
    mailer,
    sent,
    brand: { publicUrl: 'https://hr.example', supportEmail: 'support@hr.example' },
    staffEmail: 'staff@hr.example',
    supportEmail: 'support@hr.example',
  };
  return { deps, effects, delivered, records };
}

const KEY = randomBytes(32).toString('hex');
const contact = { messageId: 'm1', name: 'Ann', email: 'ann@example.test', subject: 'Hi', message: 'Hello' };

describe('sending the emails an event causes', () => {
  it('a contact message sends the staff copy (reply-to the sender) and the acknowledgement (reply-to support)', async () => {
    const { deps, effects, delivered, records } = fakes();
    await sendContactEmails(deps, effects, 'e1', contact);
    expect(delivered.map((m) => [m.to.address, m.replyTo?.address])).toEqual([
      ['staff@hr.example', 'ann@example.test'],
      ['ann@example.test', 'support@hr.example'],
    ]);
    expect(records.map((r) => [r.eventId, r.kind, r.to])).toEqual([
      ['e1', 'contact-staff', 'staff@hr.example'],
      ['e1', 'contact-acknowledgement', 'ann@example.test'],
    ]);
    // Each names its message for good (the Message-ID): a resend after a crash is the same message.
    expect(delivered.map((m) => m.key)).toEqual(['contact-staff.e1', 'contact-acknowledgement.e1']);
  });

  it('when the second email fails, the failure propagates and the retry sends only the missing one', async () => {
    let failing = true;
    const { deps, effects, delivered } = fakes({ failOn: (m) => failing && m.to.address === 'ann@example.test' });
    await expect(sendContactEmails(deps, effects, 'e2', contact)).rejects.toThrow('SMTP said no');
    failing = false;
    const outcomes = await sendContactEmails(deps, effects, 'e2', contact);
    expect(outcomes).toEqual([
      { kind: 'contact-staff', sent: false },
      { kind: 'contact-acknowledgement', sent: true },
    ]);
    expect(delivered.map((m) => m.to.address)).toEqual(['staff@hr.example', 'ann@example.test']);
  });

  it('opens the sealed verification token and links the web app page with it', async () => {
    expect(linkWithToken('https://hr.example/', '/verify-email', 'a-b_c')).toBe(
      'https://hr.example/verify-email?token=a-b_c',
    );
    const { deps, effects, delivered } = fakes();
    const sealedVerifyToken = sealSecret(KEY, 'tok-123', sealContext('verification', 'u1'));
    await sendVerification(deps, effects, 'e3', { userId: 'u1', email: 'u@example.test', sealedVerifyToken });
    expect(delivered[0]?.text).toContain('https://hr.example/verify-email?token=tok-123');
  });

  it('a token sealed for another user or purpose, or under another key, is refused without sending', async () => {
    const { deps, effects, delivered } = fakes();
    const forOther = sealSecret(KEY, 'tok', sealContext('verification', 'someone-else'));
    const asReset = sealSecret(KEY, 'tok', sealContext('verification', 'u1'));
    const otherKey = sealSecret(randomBytes(32).toString('hex'), 'tok', sealContext('verification', 'u1'));
    await expect(
      sendVerification(deps, effects, 'e4', { userId: 'u1', email: 'u@example.test', sealedVerifyToken: forOther }),
    ).rejects.toThrow(/^the verification token in the event does not open with EVENT_SECRET_KEY$/);
    await expect(
      sendPasswordReset(deps, effects, 'e5', { userId: 'u1', email: 'u@example.test', sealedResetToken: asReset }),
    ).rejects.toThrow(/password-reset token/);
    await expect(
      sendVerification(deps, effects, 'e6', { userId: 'u1', email: 'u@example.test', sealedVerifyToken: otherKey }),
    ).rejects.toThrow();
    expect(delivered).toHaveLength(0);
  });

  it('the acknowledgement to the sender holds none of their words: not the name, subject or message', async () => {
    const { deps, effects, delivered } = fakes();
    await sendContactEmails(deps, effects, 'e7', { ...contact, name: 'Buy pills now', subject: 'http://spam.example' });
    const ack = delivered.find((m) => m.to.address === 'ann@example.test');
    expect(ack?.to).toEqual({ address: 'ann@example.test' });
    for (const part of [ack?.subject, ack?.html, ack?.text]) {
      expect(part).not.toContain('Buy pills');
      expect(part).not.toContain('spam.example');
      expect(part).not.toContain('Hello');
    }
  });
});
