import { type Static, Type } from '@sinclair/typebox';
import { Lead } from './api/leads.js';

/**
 * The event catalogue (architecture.md): one topic per event type, named in the past tense.
 * Payloads are what the envelope's `data` carries. A token an email must carry (verification,
 * reset) travels sealed for the notifications service (the kit's sealSecret, EVENT_SECRET_KEY),
 * never in clear: Kafka keeps events for days and anyone reading a topic would see it.
 */
export const Topics = {
  userRegistered: 'user-registered',
  userVerified: 'user-verified',
  passwordResetRequested: 'password-reset-requested',
  /** A new verification link for a still unverified user (not a second registration). */
  verificationResendRequested: 'verification-resend-requested',
  /** A user deleted their account: every service forgets what it holds about them. */
  accountDeleted: 'account-deleted',
  requestSubmitted: 'request-submitted',
  requestStatusChanged: 'request-status-changed',
  requestCovered: 'request-covered',
  reportViewed: 'report-viewed',
  leadReceived: 'lead-received',
  contactMessageReceived: 'contact-message-received',
  /** An import changed ZIP analyses a user watches: one event per watcher per import. */
  zipWatchAlerted: 'zip-watch-alerted',
} as const;

/** Where a sealed token opens: the purpose and the user, bound into the seal. */
export const sealContext = (purpose: 'verification' | 'password-reset', userId: string) => `${purpose}:${userId}`;

export const UserRegistered = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  /** The verification token, sealed with sealContext('verification', userId). */
  sealedVerifyToken: Type.String(),
});
export type UserRegistered = Static<typeof UserRegistered>;

/** Same shape as user-registered; its own topic so read models count a user once. */
export const VerificationResendRequested = UserRegistered;
export type VerificationResendRequested = Static<typeof VerificationResendRequested>;

export const UserVerified = Type.Object({ userId: Type.String() });
export type UserVerified = Static<typeof UserVerified>;

export const PasswordResetRequested = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  /** The reset token, sealed with sealContext('password-reset', userId). */
  sealedResetToken: Type.String(),
});
export type PasswordResetRequested = Static<typeof PasswordResetRequested>;

/**
 * account-deleted: the user is gone from auth and every session ended. Each consumer erases or
 * anonymises what it holds about the user, by id and by address (the address is the only link
 * some records have, such as the emails sent to it); idempotent, as it may arrive twice.
 */
export const AccountDeleted = Type.Object({ user_id: Type.String(), email: Type.String() });
export type AccountDeleted = Static<typeof AccountDeleted>;

export const ContactMessageReceived = Type.Object({
  messageId: Type.String(),
  name: Type.String(),
  email: Type.String(),
  subject: Type.String(),
  message: Type.String(),
});
export type ContactMessageReceived = Static<typeof ContactMessageReceived>;

/**
 * A lead an ad platform posted, as stored (the webhook key's secret never travels): the Lead's
 * fields except its status (always `new` on arrival) and `gcl_id` (never sent; adding it is an
 * additive change for whoever needs it).
 */
export const LeadReceived = Type.Omit(Lead, ['gcl_id', 'lead_status', 'status_changed_at', 'status_changed_by']);
export type LeadReceived = Static<typeof LeadReceived>;

export type TopicName = (typeof Topics)[keyof typeof Topics];
export type ServiceName = 'auth' | 'requests' | 'files' | 'zipcodes' | 'leads' | 'notifications';

/**
 * Who publishes and who consumes each topic (architecture.md's event catalogue). Each service
 * creates the topics it touches at start from this table (kafkaTopicsOf), so a new topic is
 * declared once, here; the type makes every topic in `Topics` need a row.
 */
export const EventCatalogue = {
  [Topics.userRegistered]: { publisher: 'auth', consumers: ['notifications', 'requests'] },
  [Topics.userVerified]: { publisher: 'auth', consumers: ['requests'] },
  [Topics.passwordResetRequested]: { publisher: 'auth', consumers: ['notifications'] },
  [Topics.verificationResendRequested]: { publisher: 'auth', consumers: ['notifications'] },
  [Topics.accountDeleted]: { publisher: 'auth', consumers: ['requests', 'notifications', 'leads', 'zipcodes'] },
  [Topics.requestSubmitted]: { publisher: 'requests', consumers: ['notifications', 'requests'] },
  [Topics.requestStatusChanged]: { publisher: 'requests', consumers: ['requests'] },
  [Topics.requestCovered]: { publisher: 'requests', consumers: ['notifications'] },
  [Topics.reportViewed]: { publisher: 'requests', consumers: ['requests'] },
  [Topics.leadReceived]: { publisher: 'leads', consumers: ['notifications'] },
  [Topics.contactMessageReceived]: { publisher: 'notifications', consumers: ['notifications'] },
  [Topics.zipWatchAlerted]: { publisher: 'zipcodes', consumers: ['notifications'] },
} as const satisfies Record<TopicName, { publisher: ServiceName; consumers: readonly ServiceName[] }>;

/** The topics a service publishes or consumes: what its Infrastructure needs as `kafkaTopics`. */
export function kafkaTopicsOf(service: ServiceName): TopicName[] {
  return (Object.entries(EventCatalogue) as [TopicName, { publisher: string; consumers: readonly string[] }][])
    .filter(([, use]) => use.publisher === service || use.consumers.includes(service))
    .map(([topic]) => topic);
}

// HTTP shapes of api.md, shared by the services that validate them and the web app that reads them.
export * from './api/account.js';
export * from './api/admin.js';
export * from './api/auth.js';
export * from './api/health.js';
export * from './api/leads.js';
export * from './api/meta-leads.js';
export * from './api/reports.js';
export * from './api/requests.js';
export * from './api/saved.js';
export * from './api/share.js';
export * from './api/users.js';
export * from './api/zipcodes.js';
export * from './api/zipcodes-search.js';

// Month names for the dates services write out.

// Payloads of the requests service's events.
export * from './events/requests.js';
export * from './events/zip-watch.js';
