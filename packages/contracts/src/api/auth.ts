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

/** 200 of POST /api/auth/login and /api/auth/admin-login. */
export const SessionReply = Type.Object({ token: Type.String(), user: PublicUser });
export type SessionReply = Static<typeof SessionReply>;

/** 200 of GET /api/auth/me. */
export const MeReply = Type.Object({ user: PublicUser });
export type MeReply = Static<typeof MeReply>;

export const MessageReply = Type.Object({ message: Type.String() });
export type MessageReply = Static<typeof MessageReply>;

/** 200 of POST /api/auth/verify-email; `alreadyVerified` when the link had verified the address before. */
export const VerifyEmailReply = Type.Object({ message: Type.String(), alreadyVerified: Type.Boolean() });
export type VerifyEmailReply = Static<typeof VerifyEmailReply>;

/** POST /api/contact */
export const ContactBody = Type.Object(
  { name: Type.String(), email: Type.String(), subject: Type.String(), message: Type.String() },
  { additionalProperties: false },
);
export type ContactBody = Static<typeof ContactBody>;
