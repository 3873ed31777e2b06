import { createHash, randomUUID } from 'node:crypto';
import { Topics } from '@homereport/contracts';
import type { ContactMessageReceived } from '@homereport/contracts';
import { AppError, createEvent, tooManyRequests } from '@homereport/kit';
import type { ContactMessages, RateLimiter } from './ports.js';

export const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const;
type ContactInput = Record<(typeof CONTACT_FIELDS)[number], string>;

export const CONTACT_RECEIVED_MESSAGE =
  'Thanks! Your message has been received. We reply within 24 hours on business days.';
const RATE_WINDOW_SECONDS = 3600;

export interface ContactDeps {
  messages: ContactMessages;
  limiter: RateLimiter;
  /** Per client address. */
  limitPerHour: number;
  /** Per sender email address: each message mails an acknowledgement to it. */
  limitPerAddressPerHour: number;
}

/**
 * Accepts a contact-form message: refuses blank fields, spends one of the client address's and
 * one of the sender email address's hourly allowances, and stores the message together with its contact-message-received event.
 * The emails are sent by this service's own consumer of that event, so a message survives
 * Kafka or SMTP being away: it is on disk before the visitor is told it was received.
 */
export async function submitContactMessage(
  deps: ContactDeps,
  input: ContactInput,
  meta: { clientAddress: string; requestId: string },
): Promise<{ messageId: string }> {
  const fields = normalizeContact(input);
  const limits: [string, number][] = [
    [meta.clientAddress, deps.limitPerHour],
    // Keyed by a digest: Redis holds no addresses.
    [
      `address:${createHash('sha256').update(fields.email.toLowerCase()).digest('hex').slice(0, 32)}`,
      deps.limitPerAddressPerHour,
    ],
  ];
  for (const [key, limit] of limits) {
    if (limit <= 0) continue;
    const verdict = await deps.limiter.hit(key, limit, RATE_WINDOW_SECONDS);
    if (!verdict.allowed) {
      throw tooManyRequests(
        verdict.retryAfterSeconds,
        'You have sent several messages in a short time. Please wait a while before sending another.',
      );
    }
  }
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
