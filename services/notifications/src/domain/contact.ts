import { randomUUID } from 'node:crypto';
import { Topics } from '@homereport/contracts';
import type { ContactMessageReceived } from '@homereport/contracts';
import { AppError, createEvent } from '@homereport/kit';
import type { ContactMessages } from './ports.js';

export const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const;
type ContactInput = Record<(typeof CONTACT_FIELDS)[number], string>;

export const CONTACT_RECEIVED_MESSAGE =
  'Thanks! Your message has been received. We reply within 24 hours on business days.';

export interface ContactDeps {
  messages: ContactMessages;
}

/**
 * Accepts a contact-form message: refuses blank fields and stores the message together with its
 * contact-message-received event (the hourly allowances are the route's, routes/contact).
 * The emails are sent by this service's own consumer of that event, so a message survives
 * Kafka or SMTP being away: it is on disk before the visitor is told it was received.
 */
export async function submitContactMessage(
  deps: ContactDeps,
  input: ContactInput,
  meta: { requestId: string },
): Promise<{ messageId: string }> {
  const fields = normalizeContact(input);
  const messageId = randomUUID();
  const data: ContactMessageReceived = { messageId, ...fields };
  const event = createEvent(Topics.contactMessageReceived, data, {
    source: 'notifications',
    key: messageId,
    correlationId: meta.requestId,
  });
  await deps.messages.insertWithEvents({ id: messageId, ...fields, requestId: meta.requestId, createdAt: new Date() }, [
    event,
  ]);
  return { messageId };
}

/** Trims every field and refuses one that is blank. */
export function normalizeContact(input: ContactInput): ContactInput {
  const out = {} as ContactInput;
  for (const field of CONTACT_FIELDS) out[field] = checkContactField(field, input[field]);
  return out;
}

/**
 * One field as the visitor sent it: a string (never coerced from a number), trimmed, not blank.
 * Refusals look like the schema's own: 400, code VALIDATION, "<field>: <problem>".
 */
export function checkContactField(field: string, value: unknown): string {
  if (typeof value !== 'string') throw invalidField(field, 'must be string');
  const trimmed = value.trim();
  if (trimmed === '') throw invalidField(field, 'must not be blank');
  return trimmed;
}

const invalidField = (field: string, message: string) =>
  new AppError(400, 'VALIDATION', `${field}: ${message}`, { details: [{ field, message }] });
