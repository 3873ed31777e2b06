import { NewPassword } from '@homereport/contracts';
import { type Static, Type } from '@sinclair/typebox';
import { MAX_EMAIL_LENGTH } from '../domain/email.js';
import { MAX_PASSWORD_LENGTH } from '../domain/password-policy.js';

// Bodies refuse unknown fields and anything but strings, so `{ "email": { "$ne": null } }` is a
// 400 at the edge and never reaches a query. A new password's rules are checked before the
// schema (routes' sayWhenPasswordIsWeak), in the domain's words; the schema documents them.
const body = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

const Email = Type.String({ format: 'email', minLength: 3, maxLength: MAX_EMAIL_LENGTH });
const GivenPassword = Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH });
const Token = Type.String({ minLength: 1, maxLength: 200 });

export const RegisterBody = body({ email: Email, password: NewPassword });
export type RegisterBody = Static<typeof RegisterBody>;

export const CredentialsBody = body({ email: Email, password: GivenPassword });
export type CredentialsBody = Static<typeof CredentialsBody>;

/** Admin sign-in: the password, and for an admin with TOTP the code or a recovery code. */
export const AdminLoginBody = body({
  email: Email,
  password: GivenPassword,
  code: Type.Optional(Type.String({ maxLength: 12 })),
  recovery_code: Type.Optional(Type.String({ maxLength: 40 })),
});
export type AdminLoginBody = Static<typeof AdminLoginBody>;

export const MfaActivateBody = body({ code: Type.String({ minLength: 1, maxLength: 12 }) });
export const MfaStatusReply = Type.Object({ enabled: Type.Boolean(), required: Type.Boolean() });
export const MfaEnrolReply = Type.Object({ secret: Type.String(), otpauth_url: Type.String() });

export const EmailBody = body({ email: Email });
export type EmailBody = Static<typeof EmailBody>;

export const TokenBody = body({ token: Token });
export type TokenBody = Static<typeof TokenBody>;

export const ResetPasswordBody = body({ token: Token, password: NewPassword });
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

/** The only shape in which a user leaves this service. */
export const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
  emailVerified: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});

export const MessageReply = Type.Object({ message: Type.String() });
/** 200 of POST /api/auth/verify-email; `alreadyVerified` when the link had been used before. */
export const VerifyEmailReply = Type.Object({ message: Type.String(), alreadyVerified: Type.Boolean() });
export const SessionReply = Type.Object({
  token: Type.String(),
  user: User,
  mfa_enrolment_required: Type.Optional(Type.Boolean()),
});
export const MfaActivateReply = Type.Object({
  token: Type.String(),
  user: User,
  recovery_codes: Type.Array(Type.String()),
});
export const MeReply = Type.Object({ user: User });
