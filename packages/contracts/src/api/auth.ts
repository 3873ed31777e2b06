import { type Static, Type } from '@sinclair/typebox';

/** Replies of the auth calls the web app reads (api.md, "Auth and users"). */

export const UserRole = Type.Union([Type.Literal('user'), Type.Literal('admin')]);
export type UserRole = Static<typeof UserRole>;

/** The only shape in which a user leaves the auth service; never a password or its hash. */
export const PublicUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: UserRole,
  emailVerified: Type.Boolean(),
  created_at: Type.String({ description: 'ISO 8601 timestamp in UTC' }),
});
export type PublicUser = Static<typeof PublicUser>;

/** What every answer that opens a session holds: its bearer token and whose it is. */
const NEW_SESSION = { token: Type.String(), user: PublicUser };

/**
 * 200 of POST /api/auth/login and /api/auth/admin-login. `mfa_enrolment_required`: the admin
 * has no second factor while ADMIN_MFA_REQUIRED is on; the session then reaches only the
 * enrolment calls (/api/auth/mfa*), and activating TOTP answers a full admin session.
 */
export const SessionReply = Type.Object({
  ...NEW_SESSION,
  mfa_enrolment_required: Type.Optional(Type.Boolean()),
});
export type SessionReply = Static<typeof SessionReply>;

/**
 * Body of POST /api/auth/admin-login. An admin with TOTP sends the password first, is answered
 * 401 { code: "MFA_REQUIRED" }, and sends it again with `code` (6 digits from the app) or one
 * of their `recovery_code`s (each works once). A wrong one is 401 { code: "MFA_INVALID" }.
 */
export const AdminLoginBody = Type.Object({
  email: Type.String(),
  password: Type.String(),
  code: Type.Optional(Type.String()),
  recovery_code: Type.Optional(Type.String()),
});
export type AdminLoginBody = Static<typeof AdminLoginBody>;
export const MFA_REQUIRED = 'MFA_REQUIRED';
export const MFA_INVALID = 'MFA_INVALID';

/** 200 of GET /api/auth/mfa (admins): whether TOTP is on for them, and whether it must be. */
export const MfaStatusReply = Type.Object({ enabled: Type.Boolean(), required: Type.Boolean() });
export type MfaStatusReply = Static<typeof MfaStatusReply>;

/** 200 of POST /api/auth/mfa/enrol: a new secret, not active until a code from it is confirmed. */
export const MfaEnrolReply = Type.Object({ secret: Type.String(), otpauth_url: Type.String() });
export type MfaEnrolReply = Static<typeof MfaEnrolReply>;

/** Body of POST /api/auth/mfa/activate. */
export const MfaActivateBody = Type.Object({ code: Type.String() });
export type MfaActivateBody = Static<typeof MfaActivateBody>;

/**
 * 200 of POST /api/auth/mfa/activate: TOTP is on; the recovery codes are shown this once (only
 * their hashes are kept); the session that asked is replaced by this full admin session.
 */
export const MfaActivateReply = Type.Object({
  ...NEW_SESSION,
  recovery_codes: Type.Array(Type.String()),
});
export type MfaActivateReply = Static<typeof MfaActivateReply>;

/** 200 of GET /api/auth/me. */
export const MeReply = Type.Object({ user: PublicUser });
export type MeReply = Static<typeof MeReply>;

export const MessageReply = Type.Object({ message: Type.String() });
export type MessageReply = Static<typeof MessageReply>;

/** 200 of POST /api/auth/verify-email; `alreadyVerified` when the link had verified the address before. */
export const VerifyEmailReply = Type.Object({ message: Type.String(), alreadyVerified: Type.Boolean() });
export type VerifyEmailReply = Static<typeof VerifyEmailReply>;

/** The longest email address there is (RFC 5321's path limit), as the auth and notifications services check. */
export const EMAIL_MAX_LENGTH = 254;

/** The lengths the notifications service accepts for POST /api/contact (its schemas/contact.ts). */
export const CONTACT_MAX_LENGTH = { name: 100, email: EMAIL_MAX_LENGTH, subject: 200, message: 5000 } as const;

/** POST /api/contact */
export const ContactBody = Type.Object(
  { name: Type.String(), email: Type.String(), subject: Type.String(), message: Type.String() },
  { additionalProperties: false },
);
export type ContactBody = Static<typeof ContactBody>;
