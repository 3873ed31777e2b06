import type { ContactMessageReceived, PasswordResetRequested, UserRegistered } from '@homereport/contracts';
import type { Brand } from '../mail/layout.js';
import {
  contactAcknowledgementEmail,
  contactStaffEmail,
  passwordResetEmail,
  verificationEmail,
} from '../mail/templates.js';
import type { EmailKind, MailAddress, Mailer, OutgoingMail, SentEmails } from './ports.js';

export interface NotifyDeps {
  mailer: Mailer;
  sent: SentEmails;
  brand: Brand;
  staffEmail: string;
  supportEmail: string;
}

export interface SendOutcome {
  kind: EmailKind;
  /** False when an earlier attempt at this event already sent this email. */
  sent: boolean;
}

/**
 * Sends one email of a kind for an event, unless it was sent before. The consumer already
 * processes an event id once, but an event that causes two emails can fail between them; the
 * retry then sends only the one still missing. A failed send throws, so the consumer retries.
 */
async function sendOnce(deps: NotifyDeps, eventId: string, kind: EmailKind, mail: OutgoingMail): Promise<SendOutcome> {
  if (await deps.sent.wasSent(eventId, kind)) return { kind, sent: false };
  const { messageId } = await deps.mailer.send(mail);
  await deps.sent.record({ eventId, kind, to: mail.to.address, sentAt: new Date(), smtpMessageId: messageId });
  return { kind, sent: true };
}

const support = (deps: NotifyDeps): MailAddress => ({ name: 'HomeReport Support', address: deps.supportEmail });

export async function sendVerification(
  deps: NotifyDeps,
  eventId: string,
  data: UserRegistered,
): Promise<SendOutcome[]> {
  requireWebLink(data.verifyUrl, 'verifyUrl');
  const email = verificationEmail({ verifyUrl: data.verifyUrl }, deps.brand);
  return [
    await sendOnce(deps, eventId, 'verification', { to: { address: data.email }, replyTo: support(deps), ...email }),
  ];
}

export async function sendPasswordReset(
  deps: NotifyDeps,
  eventId: string,
  data: PasswordResetRequested,
): Promise<SendOutcome[]> {
  requireWebLink(data.resetUrl, 'resetUrl');
  const email = passwordResetEmail({ resetUrl: data.resetUrl }, deps.brand);
  return [
    await sendOnce(deps, eventId, 'password-reset', { to: { address: data.email }, replyTo: support(deps), ...email }),
  ];
}

/** The staff's copy answers straight to the sender; the sender's acknowledgement answers to support. */
export async function sendContactEmails(
  deps: NotifyDeps,
  eventId: string,
  data: ContactMessageReceived,
): Promise<SendOutcome[]> {
  const sender: MailAddress = { name: data.name, address: data.email };
  return [
    await sendOnce(deps, eventId, 'contact-staff', {
      to: { name: 'HomeReport Staff', address: deps.staffEmail },
      replyTo: sender,
      ...contactStaffEmail(data, deps.brand),
    }),
    await sendOnce(deps, eventId, 'contact-acknowledgement', {
      to: sender,
      replyTo: support(deps),
      ...contactAcknowledgementEmail(data, deps.brand),
    }),
  ];
}

/** A button must open a web page: a javascript: or data: link in an email is an attack. */
function requireWebLink(url: string, field: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${field} is not a URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`${field} is not an http(s) link`);
}
