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

/** The consumer group; the kit remembers processed event ids per group. */
export const CONSUMER_GROUP = 'notifications';

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
