import type { OutboxEntry } from '@homereport/kit';

/** What the use cases need from the outside world; data/ and mail/ provide them. */

export interface MailAddress {
  name?: string;
  address: string;
}

export interface OutgoingMail {
  to: MailAddress;
  replyTo?: MailAddress;
  subject: string;
  html: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects otherwise. */
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** Which kind of email an event caused; one email of each kind per event at most. */
export type EmailKind =
  | 'verification'
  | 'password-reset'
  | 'contact-staff'
  | 'contact-acknowledgement'
  | 'request-staff'
  | 'request-receipt'
  | 'report-ready'
  | 'lead-alert';

export interface SentEmail {
  eventId: string;
  kind: EmailKind;
  to: string;
  sentAt: Date;
  smtpMessageId: string;
}

export interface SentEmails {
  wasSent(eventId: string, kind: EmailKind): Promise<boolean>;
  record(sent: SentEmail): Promise<void>;
  /** Several at once (one digest email covers several events); rows already recorded are skipped. */
  recordMany(sent: SentEmail[]): Promise<void>;
  /**
   * Which of these events had their email of this kind recorded, in one lookup by `_id`. Rows
   * written before `_id` named the event (ObjectIds) are seen only when asking about one event.
   * The kit hands several events at once only when it claimed them all afresh, and an event no
   * consumer had claimed before has no email yet; one event may be a claim taken over from a
   * consumer of the earlier version that died after sending.
   */
  sentAmong(eventIds: string[], kind: EmailKind): Promise<Set<string>>;
}

export interface StoredContactMessage {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  requestId: string;
  createdAt: Date;
}

export interface ContactMessages {
  /** Stores the message and its pending events in one single-document write. */
  insertWithEvents(message: StoredContactMessage, events: OutboxEntry[]): Promise<void>;
}

export interface RateLimiter {
  /** Counts one hit for `key`; over `limit` within the window, says how long to wait. */
  hit(
    key: string,
    limit: number,
    windowSeconds: number,
  ): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}
