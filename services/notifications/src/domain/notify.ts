import {
  type ContactMessageReceived,
  type PasswordResetRequested,
  type UserRegistered,
  sealContext,
} from '@homereport/contracts';
import { type Effects, openSecret } from '@homereport/kit';
import type { Brand } from '../mail/layout.js';
import {
  contactAcknowledgementEmail,
  contactStaffEmail,
  passwordResetEmail,
  verificationEmail,
} from '../mail/templates.js';
import type { EmailKind, MailAddress, Mailer, OutgoingMail, SentEmails } from './ports.js';
import type { ReceiptFolding } from './receipt-digest.js';

export interface NotifyDeps {
  /** Opens the tokens auth sealed into its events (EVENT_SECRET_KEY). */
  eventSecretKey: string;
  mailer: Mailer;
  sent: SentEmails;
  brand: Brand;
  staffEmail: string;
  supportEmail: string;
  /** lead-received alerts: whether test leads (is_test) are emailed too. */
  leadAlerts?: { includeTestLeads: boolean };
  /** Request receipts beyond a few an hour folded into a digest; without it each goes out on its own. */
  receipts?: ReceiptFolding;
}

export interface SendOutcome {
  kind: EmailKind;
  /** False when an earlier attempt at this event already sent this email. */
  sent: boolean;
}

/**
 * Sends one email of a kind for an event, unless the event's claim recorded it as sent. The kit
 * hands an event to one handler at a time and skips it once handled, but an event that causes
 * two emails can fail between them; the retry then sends only the one still missing. The claim
 * (Effects) is the one place that knows: sent_emails is written for operators, never read here,
 * so there are not two records to keep in agreement. A failed send throws, so the kit retries.
 */
export async function sendOnce(
  deps: Pick<NotifyDeps, 'mailer' | 'sent'>,
  effects: Effects,
  eventId: string,
  kind: EmailKind,
  mail: OutgoingMail,
): Promise<SendOutcome> {
  if (effects.done(kind, eventId)) return { kind, sent: false };
  const { messageId } = await deps.mailer.send({ ...mail, key: `${kind}.${eventId}`, template: kind });
  await effects.record(kind, [eventId]);
  await deps.sent.record({ eventId, kind, to: mail.to.address, sentAt: new Date(), smtpMessageId: messageId });
  return { kind, sent: true };
}

const support = (deps: NotifyDeps): MailAddress => ({ name: 'HomeReport Support', address: deps.supportEmail });

/** Sent for user-registered and for verification-resend-requested alike. */
export async function sendVerification(
  deps: NotifyDeps,
  effects: Effects,
  eventId: string,
  data: UserRegistered,
): Promise<SendOutcome[]> {
  const token = openToken(deps, data.sealedVerifyToken, 'verification', data.userId);
  const verifyUrl = linkWithToken(deps.brand.publicUrl, '/verify-email', token);
  const email = verificationEmail({ verifyUrl }, deps.brand);
  return [
    await sendOnce(deps, effects, eventId, 'verification', {
      to: { address: data.email },
      replyTo: support(deps),
      ...email,
    }),
  ];
}

export async function sendPasswordReset(
  deps: NotifyDeps,
  effects: Effects,
  eventId: string,
  data: PasswordResetRequested,
): Promise<SendOutcome[]> {
  const token = openToken(deps, data.sealedResetToken, 'password-reset', data.userId);
  const resetUrl = linkWithToken(deps.brand.publicUrl, '/reset-password', token);
  const email = passwordResetEmail({ resetUrl }, deps.brand);
  return [
    await sendOnce(deps, effects, eventId, 'password-reset', {
      to: { address: data.email },
      replyTo: support(deps),
      ...email,
    }),
  ];
}

/** The staff's copy answers straight to the sender; the sender's acknowledgement answers to support. */
export async function sendContactEmails(
  deps: NotifyDeps,
  effects: Effects,
  eventId: string,
  data: ContactMessageReceived,
): Promise<SendOutcome[]> {
  const sender: MailAddress = { name: data.name, address: data.email };
  return [
    await sendOnce(deps, effects, eventId, 'contact-staff', {
      to: { name: 'HomeReport Staff', address: deps.staffEmail },
      replyTo: sender,
      ...contactStaffEmail(data, deps.brand),
    }),
    // To an address nobody verified: it carries none of the sender's words (not even their
    // name), so the form cannot be used to mail a stranger anything.
    await sendOnce(deps, effects, eventId, 'contact-acknowledgement', {
      to: { address: data.email },
      replyTo: support(deps),
      ...contactAcknowledgementEmail(deps.brand),
    }),
  ];
}

/** The token sealed for us; an event whose seal does not open fails (and is dead-lettered) without saying why in detail. */
function openToken(deps: NotifyDeps, sealed: string, purpose: 'verification' | 'password-reset', userId: string) {
  try {
    return openSecret(deps.eventSecretKey, sealed, sealContext(purpose, userId));
  } catch {
    throw new Error(`the ${purpose} token in the event does not open with EVENT_SECRET_KEY`);
  }
}

/** `<PUBLIC_URL><page>?token=...`: the web app's page that posts the token back to auth. */
export function linkWithToken(publicUrl: string, page: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${page}?token=${encodeURIComponent(token)}`;
}
