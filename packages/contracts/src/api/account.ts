import { type Static, Type } from '@sinclair/typebox';
import { PublicUser } from './auth.js';
import { CoverageRequest } from './requests.js';
import { AccessHistoryEntry, UserStats } from './users.js';

/** "Your account" in api.md: change the password, download one's data, delete the account. */

/** Longest password any call accepts: long enough for a passphrase, short enough to hash cheaply. */
export const PASSWORD_MAX_LENGTH = 200;
/** Shortest new password (register, reset, change); the auth service words the refusal. */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * A password being chosen: at least 8 characters, not only spaces, not a common one. The
 * schema carries what JSON Schema can say (the length, a non-space); the auth service checks
 * these rules first, to answer in a sentence.
 */
export const NewPassword = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  pattern: '\\S',
  description: 'At least 8 characters, not only spaces, and not one of the most common passwords.',
});

const GivenPassword = Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH });

/**
 * POST /api/auth/change-password (bearer). The new password follows the register and reset rules
 * (at least 8 characters, not only spaces), checked by the service, which words the 400.
 */
export const ChangePasswordBody = Type.Object(
  {
    current_password: GivenPassword,
    new_password: NewPassword,
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** DELETE /api/auth/account (bearer): the password again, so a session left open cannot delete the account. */
export const DeleteAccountBody = Type.Object({ password: GivenPassword }, { additionalProperties: false });
export type DeleteAccountBody = Static<typeof DeleteAccountBody>;

/**
 * What the requests service holds about one user, for the export: their own requests (newest
 * first, no file links), their recent report views (newest first) and their credits now.
 */
export const UserDataExport = Type.Object({
  requests: Type.Array(CoverageRequest),
  access_history: Type.Array(AccessHistoryEntry),
  credits: UserStats,
});
export type UserDataExport = Static<typeof UserDataExport>;

/** 200 of GET /api/auth/account/export, sent as an attachment (`homereport-data.json`). */
export const AccountExport = Type.Object({
  user: PublicUser,
  requests: Type.Array(CoverageRequest),
  access_history: Type.Array(AccessHistoryEntry),
  credits: UserStats,
});
export type AccountExport = Static<typeof AccountExport>;

/** The file name the export is offered under. */
export const ACCOUNT_EXPORT_FILE_NAME = 'homereport-data.json';
