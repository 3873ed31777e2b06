import { type Static, Type } from '@sinclair/typebox';

/**
 * The event catalogue (architecture.md): one topic per event type, named in the past tense.
 * Payloads are what the envelope's `data` carries. Links with secrets (verification, reset)
 * travel only because the notifications service must email them; never log them.
 */
export const Topics = {
  userRegistered: 'user-registered',
  userVerified: 'user-verified',
  passwordResetRequested: 'password-reset-requested',
  requestSubmitted: 'request-submitted',
  requestStatusChanged: 'request-status-changed',
  requestCovered: 'request-covered',
  reportFileStored: 'report-file-stored',
  reportViewed: 'report-viewed',
  leadReceived: 'lead-received',
  contactMessageReceived: 'contact-message-received',
  /** Proves the pipeline end to end; published by every service's /ping route. */
  pingRecorded: 'ping-recorded',
} as const;

export const UserRegistered = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  verifyUrl: Type.String(),
});
export type UserRegistered = Static<typeof UserRegistered>;

export const UserVerified = Type.Object({ userId: Type.String() });
export type UserVerified = Static<typeof UserVerified>;

export const PasswordResetRequested = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  resetUrl: Type.String(),
});
export type PasswordResetRequested = Static<typeof PasswordResetRequested>;

export const ContactMessageReceived = Type.Object({
  messageId: Type.String(),
  name: Type.String(),
  email: Type.String(),
  subject: Type.String(),
  message: Type.String(),
});
export type ContactMessageReceived = Static<typeof ContactMessageReceived>;

/** A lead an ad platform posted, as stored (the webhook key's secret never travels). */
export const LeadReceived = Type.Object({
  id: Type.String(),
  lead_id: Type.String(),
  key_name: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  campaign_id: Type.Union([Type.String(), Type.Null()]),
  ad_group_id: Type.Union([Type.String(), Type.Null()]),
  form_id: Type.Union([Type.String(), Type.Null()]),
  is_test: Type.Boolean(),
  created_at: Type.String(),
});
export type LeadReceived = Static<typeof LeadReceived>;

export const PingRecorded = Type.Object({ pingId: Type.String(), service: Type.String(), note: Type.String() });
export type PingRecorded = Static<typeof PingRecorded>;

// HTTP shapes of api.md, shared by the services that validate them and the web app that reads them.
export * from './api/admin.js';
export * from './api/auth.js';
export * from './api/leads.js';
export * from './api/reports.js';
export * from './api/requests.js';
export * from './api/users.js';
export * from './api/zipcodes.js';

// Payloads of the requests service's events.
export * from './events/requests.js';
