import { CLAIM_INDEXES, type IndexSpec, outboxSchemaPath } from '@homereport/kit';
import { type Connection, type Model, Schema } from 'mongoose';
import type { FoldedReceipt, SentEmail, StoredContactMessage } from '../domain/ports.js';

/** A contact message as stored: the domain's message under `_id`, with its pending events. */
interface ContactMessageDoc extends Omit<StoredContactMessage, 'id'> {
  _id: string;
  outbox: unknown[];
}

const contactMessageSchema = new Schema<ContactMessageDoc>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    email: { type: String, required: true },
    subject: { type: String, required: true },
    message: { type: String, required: true },
    requestId: { type: String, required: true },
    createdAt: { type: Date, required: true },
    // contact-message-received waits here until the relay has published it. The kit's path,
    // with its readonly arrays copied so mongoose's types accept it.
    outbox: { ...outboxSchemaPath, type: [Object], default: [] },
  },
  { collection: 'contact_messages', versionKey: false },
);
// Looked up only by _id (the message id in the event and the staff email's reference). The
// outbox relay's scan for documents with pending events needs no index at this volume.

interface SentEmailDoc extends SentEmail {
  /** `<kind>:<eventId>` (sentEmailId), so the emails of many events are found in one `_id` lookup. */
  _id: string;
}

const sentEmailSchema = new Schema<SentEmailDoc>(
  {
    _id: { type: String, required: true },
    eventId: { type: String, required: true },
    kind: { type: String, required: true },
    to: { type: String, required: true },
    sentAt: { type: Date, required: true },
    smtpMessageId: { type: String, required: true },
  },
  { collection: 'sent_emails', versionKey: false },
);
/**
 * The indexes this release needs, created by its migrations (cli/migrate.ts) and checked at start,
 * never declared on the schemas (mongoose's syncIndexes dropped what a schema did not declare,
 * so two releases in a rollout dropped each other's: decision 028). Named as mongoose named them.
 */
export const INDEXES: IndexSpec[] = [
  // Unique, so one event never records the same email twice; serves operators' "what did event X
  // send?". Whether to send is not asked here but of the kit's claim on the event (see ports.ts).
  { collection: 'sent_emails', key: { eventId: 1, kind: 1 }, unique: true, name: 'eventId_1_kind_1' },
  // Operators answering "did this person get our email?": find({ to }).sort({ sentAt: -1 }) in the shell.
  { collection: 'sent_emails', key: { to: 1, sentAt: -1 }, name: 'to_1_sentAt_-1' },
  ...CLAIM_INDEXES,
];

/** One account's receipts of one clock hour, and the digest of those beyond the first few (ports.ts, ReceiptWindows). */
export interface ReceiptWindowDoc {
  /** `<user id>:<hour>` (receiptWindow in domain/receipt-digest.ts). */
  _id: string;
  userId: string;
  to: string;
  hour: Date;
  /** Receipts counted into the window, one by one and folded. */
  count: number;
  /** Absent while no receipt was folded; `sending` while a consumer holds it (until `leaseUntil`). */
  state?: 'pending' | 'sending' | 'sent';
  folded?: FoldedReceipt[];
  foldedCount?: number;
  dueAt?: Date;
  owner?: string;
  leaseUntil?: Date;
  attempts?: number;
  lastError?: string;
  sentAt?: Date;
}

const receiptWindowSchema = new Schema<ReceiptWindowDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    to: { type: String, required: true },
    hour: { type: Date, required: true },
    count: { type: Number, required: true },
    state: { type: String, enum: ['pending', 'sending', 'sent'] },
    folded: { type: [Object], default: undefined },
    foldedCount: Number,
    dueAt: Date,
    owner: String,
    leaseUntil: Date,
    attempts: Number,
    lastError: String,
    sentAt: Date,
  },
  { collection: 'receipt_windows', versionKey: false },
);
// Written by `_id` only (atomic single-document updates). The sweep for due digests and the
// pruning scan the collection: one document per account and hour with a signed-in receipt, for
// the last two hours, is small, and the embedded server would use no index for their ranges.

/** A sent email's `_id`: one per event and kind, like the unique { eventId, kind } index. */
export const sentEmailId = (kind: string, eventId: string) => `${kind}:${eventId}`;

export interface Models {
  ContactMessage: Model<ContactMessageDoc>;
  SentEmail: Model<SentEmailDoc>;
  ReceiptWindow: Model<ReceiptWindowDoc>;
}

/** Registers the models on the service's connection (their indexes: INDEXES, above). */
export async function createModels(conn: Connection): Promise<Models> {
  return {
    ContactMessage: conn.model('ContactMessage', contactMessageSchema),
    SentEmail: conn.model('SentEmail', sentEmailSchema),
    ReceiptWindow: conn.model('ReceiptWindow', receiptWindowSchema),
  };
}
