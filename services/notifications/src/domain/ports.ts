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
  /**
   * Names the message for good, as `<kind>.<event id>`: the transport makes its Message-ID of it.
   * A send the SMTP server took just before a crash, not yet recorded on the event's claim, is
   * sent again by whoever takes the claim over (SMTP cannot be asked whether it was taken); with
   * the same Message-ID both copies are one message (RFC 5322, 3.6.4), which mailboxes show once.
   */
  key?: string;
}

/** A message and the kind of email it is (the `template` of homereport_emails_sent_total). */
export type TemplatedMail = OutgoingMail & { template: EmailKind };

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects otherwise. */
  send(mail: TemplatedMail): Promise<{ messageId: string }>;
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
  | 'request-receipt-digest'
  | 'report-ready'
  | 'lead-alert'
  | 'zip-watch-alert';

export interface SentEmail {
  eventId: string;
  kind: EmailKind;
  to: string;
  sentAt: Date;
  smtpMessageId: string;
}

/**
 * The record of the emails sent, for operators ("did this person get our email?") and for
 * erasing a deleted account's address. It decides nothing: whether an email was sent before is
 * asked of the kit's claim on the event (the handler's Effects), the one place that stops
 * duplicates, so no second record can disagree with it.
 */
export interface SentEmails {
  record(sent: SentEmail): Promise<void>;
  /** Several at once (one digest email covers several events); rows already recorded are skipped. */
  recordMany(sent: SentEmail[]): Promise<void>;
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

/** A receipt that waits in its account's hourly digest instead of going out on its own. */
export interface FoldedReceipt {
  eventId: string;
  requestId: string;
  address: string;
}

/** A digest due to go out, taken for sending by one consumer (see ReceiptWindows.takeDue). */
export interface DueDigest {
  /** The window's id: `<user id>:<hour>`; names the digest email for good (its Message-ID). */
  id: string;
  to: string;
  /** Start of the hour whose receipts it gathers. */
  hour: Date;
  /** The first receipts folded (at most DIGEST_LISTED), in order. */
  folded: FoldedReceipt[];
  /** How many receipts were folded, listed or not (never fewer than are listed). */
  foldedCount: number;
  /** Sends of it that failed before. */
  attempts: number;
}

/**
 * One account's receipts per clock hour (decision 027), in MongoDB so that every replica counts
 * into the same window by atomic single-document updates: the first few receipts of an hour go out
 * one by one, the further ones wait in the window's digest, sent once the hour is over.
 */
export interface ReceiptWindows {
  /** Counts one receipt into the window (created on first use); resolves with the count after it. */
  count(windowId: string, window: { userId: string; to: string; hour: Date }): Promise<number>;
  /**
   * Adds a receipt to the window's digest, due at `dueAt`: `folded` (also when it was folded
   * before), or `taken` when the digest was already taken for sending (the receipt must go out on
   * its own then, or nobody would tell of it).
   */
  fold(windowId: string, receipt: FoldedReceipt, dueAt: Date): Promise<'folded' | 'taken'>;
  /**
   * Takes a digest that is due at `now` (or whose sender stopped renewing its lease) for `owner`,
   * or null when none is. One taker at a time per digest, whichever replica asks.
   */
  takeDue(now: Date, owner: string, leaseMs: number): Promise<DueDigest | null>;
  /** The digest went out: never again. */
  markSent(windowId: string, owner: string, sentAt: Date): Promise<void>;
  /** Sending failed: due again at `retryAt`, for any taker. */
  release(windowId: string, owner: string, retryAt: Date, error: string): Promise<void>;
  /** Forgets windows of hours before `before` that hold no digest still to send; returns how many. */
  prune(before: Date): Promise<number>;
}
