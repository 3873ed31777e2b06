import {
  ContactMessageReceived,
  PasswordResetRequested,
  Topics,
  UserRegistered,
  VerificationResendRequested,
} from '@homereport/contracts';
import type { Effects, EventHandler } from '@homereport/kit';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  type NotifyDeps,
  type SendOutcome,
  sendContactEmails,
  sendPasswordReset,
  sendVerification,
} from '../domain/notify.js';
import { leadNotificationHandlers } from './lead-handlers.js';
import { requestNotificationHandlers } from './request-handlers.js';
import { zipWatchNotificationHandlers } from './zip-watch-handlers.js';

/**
 * The service's consumer group: the Kafka group of the bulk lane, and the one group whose claims
 * (processed event ids) and dead-letter topic both lanes share, so an event is handled once
 * whichever lane reads it (while a rolling update runs an old single-lane process beside a new
 * one, both do).
 */
export const CONSUMER_GROUP = 'notifications';

/** The Kafka group of the urgent lane: a fetch loop of its own, never behind the bulk topics' backlog. */
export const URGENT_CONSUMER_GROUP = 'notifications-urgent';

/**
 * The events of emails a person is waiting for, on the page that told them to check their inbox:
 * the verification link, the password reset, the contact form's acknowledgement. Every other
 * topic (request receipts and staff alerts, report-ready, lead alerts, ZIP watch alerts, account
 * erasure) comes in bursts that nobody watches arrive, and goes in the bulk lane.
 */
export const URGENT_TOPICS: readonly string[] = [
  Topics.userRegistered,
  Topics.verificationResendRequested,
  Topics.passwordResetRequested,
  Topics.contactMessageReceived,
];

/** The handlers split into the two lanes' consumers (decision 027). */
export function lanes(handlers: Record<string, EventHandler>): {
  urgent: Record<string, EventHandler>;
  bulk: Record<string, EventHandler>;
} {
  const urgent: Record<string, EventHandler> = {};
  const bulk: Record<string, EventHandler> = {};
  for (const [topic, handler] of Object.entries(handlers)) {
    if (URGENT_TOPICS.includes(topic)) urgent[topic] = handler;
    else bulk[topic] = handler;
  }
  return { urgent, bulk };
}

/**
 * One handler per consumed topic. A payload that breaks its contract throws like any failure,
 * so after the kit's bounded retries it lands on the dead-letter topic for an operator. Logs
 * carry the kind of email and never the addresses' links or the message text.
 */
export function notificationHandlers(deps: NotifyDeps): Record<string, EventHandler> {
  const handle =
    <S extends TSchema>(
      schema: S,
      send: (deps: NotifyDeps, effects: Effects, eventId: string, data: Static<S>) => Promise<SendOutcome[]>,
    ): EventHandler =>
    async (event, log, effects) => {
      if (!Value.Check(schema, event.data)) {
        const problem = Value.Errors(schema, event.data).First();
        throw new Error(
          `${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message ?? 'invalid'}`,
        );
      }
      for (const outcome of await send(deps, effects, event.id, event.data)) {
        if (outcome.sent) log.info({ kind: outcome.kind }, 'email sent');
        else log.info({ kind: outcome.kind }, 'email already sent for this event; not sent again');
      }
    };

  return {
    [Topics.userRegistered]: handle(UserRegistered, sendVerification),
    [Topics.verificationResendRequested]: handle(VerificationResendRequested, sendVerification),
    [Topics.passwordResetRequested]: handle(PasswordResetRequested, sendPasswordReset),
    [Topics.contactMessageReceived]: handle(ContactMessageReceived, sendContactEmails),
    ...requestNotificationHandlers(deps),
    ...leadNotificationHandlers(deps),
    ...zipWatchNotificationHandlers(deps),
  };
}
