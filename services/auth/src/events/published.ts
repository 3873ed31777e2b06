import {
  type AccountDeleted,
  type PasswordResetRequested,
  Topics,
  type UserRegistered,
  type UserVerified,
  type VerificationResendRequested,
  kafkaTopicsOf,
  sealContext,
} from '@homereport/contracts';
import { type OutboxEntry, createEvent, sealSecret } from '@homereport/kit';

/**
 * The events this service publishes, each keyed by the user id so one user's events stay in
 * order. They are recorded in the user document's outbox and published by the relay. Tokens the
 * notifications service must email travel sealed under EVENT_SECRET_KEY (bound to purpose and
 * user), so a reader of the topic, or of its dead-letter copy, learns nothing usable.
 */
export const PUBLISHED_TOPICS = kafkaTopicsOf('auth');

/** Collections whose documents carry an outbox. */
export const OUTBOX_COLLECTIONS = ['users'];

const meta = (userId: string, correlationId?: string) => ({ source: 'auth', key: userId, correlationId });

interface WithToken {
  userId: string;
  email: string;
  token: string;
}

export const userRegistered = (
  { userId, email, token }: WithToken,
  sealKey: string,
  correlationId?: string,
): OutboxEntry<UserRegistered> =>
  createEvent(
    Topics.userRegistered,
    { userId, email, sealedVerifyToken: sealSecret(sealKey, token, sealContext('verification', userId)) },
    meta(userId, correlationId),
  );

export const verificationResendRequested = (
  { userId, email, token }: WithToken,
  sealKey: string,
  correlationId?: string,
): OutboxEntry<VerificationResendRequested> =>
  createEvent(
    Topics.verificationResendRequested,
    { userId, email, sealedVerifyToken: sealSecret(sealKey, token, sealContext('verification', userId)) },
    meta(userId, correlationId),
  );

export const userVerified = (data: UserVerified, correlationId?: string): OutboxEntry<UserVerified> =>
  createEvent(Topics.userVerified, data, meta(data.userId, correlationId));

export const passwordResetRequested = (
  { userId, email, token }: WithToken,
  sealKey: string,
  correlationId?: string,
): OutboxEntry<PasswordResetRequested> =>
  createEvent(
    Topics.passwordResetRequested,
    { userId, email, sealedResetToken: sealSecret(sealKey, token, sealContext('password-reset', userId)) },
    meta(userId, correlationId),
  );

/**
 * The account is gone: every service erases or anonymises what it holds about the user. Carries
 * the email because some records are linked to the user only by address (emails sent to it).
 */
export const accountDeleted = (data: AccountDeleted, correlationId?: string): OutboxEntry<AccountDeleted> =>
  createEvent(Topics.accountDeleted, data, meta(data.user_id, correlationId));
