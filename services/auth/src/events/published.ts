import { type PasswordResetRequested, Topics, type UserRegistered, type UserVerified } from '@homereport/contracts';
import { type OutboxEntry, createEvent } from '@homereport/kit';

/**
 * The events this service publishes, each keyed by the user id so one user's events stay in
 * order. They are recorded in the user document's outbox and published by the relay; the two
 * with links carry a secret only because notifications must email it (never log them).
 */
export const PUBLISHED_TOPICS = [Topics.userRegistered, Topics.userVerified, Topics.passwordResetRequested];

/** Collections whose documents carry an outbox. */
export const OUTBOX_COLLECTIONS = ['users'];

const meta = (userId: string, correlationId?: string) => ({ source: 'auth', key: userId, correlationId });

export const userRegistered = (data: UserRegistered, correlationId?: string): OutboxEntry<UserRegistered> =>
  createEvent(Topics.userRegistered, data, meta(data.userId, correlationId));

export const userVerified = (data: UserVerified, correlationId?: string): OutboxEntry<UserVerified> =>
  createEvent(Topics.userVerified, data, meta(data.userId, correlationId));

export const passwordResetRequested = (
  data: PasswordResetRequested,
  correlationId?: string,
): OutboxEntry<PasswordResetRequested> =>
  createEvent(Topics.passwordResetRequested, data, meta(data.userId, correlationId));
