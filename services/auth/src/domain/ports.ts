import type { UserDataExport } from '@homereport/contracts';
import type { OutboxEntry, Role, SessionLifetimes } from '@homereport/kit';

/** A user as the data layer hands it over: plain data, never a database document. */
export interface UserRecord {
  id: string;
  email: string;
  role: Role;
  emailVerified: boolean;
  plan: 'free';
  created_at: Date;
}

export interface UserWithHash extends UserRecord {
  passwordHash: string;
}

/** A hashed single-use secret and the moment it stops working. */
export interface PendingToken {
  tokenHash: string;
  expiresAt: Date;
}

export interface NewUser {
  id: string;
  email: string;
  passwordHash: string;
  role: Role;
  emailVerified: boolean;
  created_at: Date;
  verification?: PendingToken;
}

/**
 * What the use cases need from storage. Every write that changes state and emits an event is
 * one single-document write carrying the event (the outbox), because the store has no
 * multi-document transactions.
 */
export interface UserStore {
  newId(): string;
  /** 'duplicate' when the (normalised) email is taken. */
  insert(user: NewUser, events: OutboxEntry[]): Promise<'created' | 'duplicate'>;
  findById(id: string): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserWithHash | null>;
  /**
   * The user holding this verification token, expired or not, used or not (a used token stays
   * with the verified user, so opening the link again can say it is verified already).
   */
  findByVerificationToken(tokenHash: string): Promise<UserRecord | null>;
  /** Uses the token (only if held, unexpired and the email still unverified) and marks the email verified. */
  markVerified(userId: string, tokenHash: string, now: Date, events: OutboxEntry[]): Promise<boolean>;
  /** Replaces the verification token of a still unverified user. */
  replaceVerificationToken(userId: string, token: PendingToken, events: OutboxEntry[]): Promise<boolean>;
  setResetToken(userId: string, token: PendingToken, events: OutboxEntry[]): Promise<boolean>;
  findByResetToken(tokenHash: string, now: Date): Promise<UserRecord | null>;
  /** Consumes the reset token (only if still held and unexpired) and stores the new hash. */
  resetPassword(userId: string, tokenHash: string, now: Date, passwordHash: string): Promise<boolean>;
  updatePasswordHash(userId: string, passwordHash: string): Promise<void>;
  /** The user and their password hash, by id; null for an unknown or deleted account. */
  findByIdWithHash(id: string): Promise<UserWithHash | null>;
  /** A password the user chose while signed in: the new hash, and any pending reset link stops working. */
  changePassword(userId: string, passwordHash: string): Promise<boolean>;
  /**
   * Deletes the account in one write that also records `events`: the document keeps only its id,
   * the deletion time and the outbox until the relay has published them (so the email leaves the
   * database with the published event). False when the account is unknown or deleted already.
   */
  markDeleted(userId: string, at: Date, events: OutboxEntry[]): Promise<boolean>;
  /** Makes an existing user a verified admin with this password hash, in one write. */
  promoteToAdmin(userId: string, changes: { passwordHash?: string }, events: OutboxEntry[]): Promise<boolean>;
}

export interface Sessions {
  /** `lifetimes` shortens this session (admins'); without it, the store's defaults. */
  create(user: { userId: string; email: string; role: Role }, lifetimes?: SessionLifetimes): Promise<string>;
  /** False when the token names no live session. */
  revoke(token: string): Promise<boolean>;
  revokeAll(userId: string): Promise<number>;
}

/** Sessions as a signed-in user's own account changes need them. */
export interface OwnSessions extends Sessions {
  /** Ends every session of the user but the one behind `keepToken`. */
  revokeOthers(userId: string, keepToken: string): Promise<number>;
}

/** Where a call to another service reports that it is unavailable (the request's logger). */
export interface WarningLog {
  warn(obj: object, msg: string): void;
}

/** What another service holds about a user, for the account export. */
export interface UserDataSource {
  userData(userId: string, context: { requestId: string; log: WarningLog }): Promise<UserDataExport>;
}

export type MailKind = 'verification' | 'reset';

/**
 * Limits on what a client may ask of us, counted atomically before the work is done. Each
 * answers null when allowed, or the seconds to wait.
 */
export interface Limits {
  /** Counts a sign-in attempt for this account from this client address, before the password is checked. */
  signInAttempt(email: string, client: string): Promise<number | null>;
  /**
   * A session was issued (nothing less is a success): the account's failures from that client and
   * its account-wide counts, passwords and codes, are forgotten, and the attempt does not count.
   */
  signInSucceeded(email: string, client: string): Promise<void>;
  /**
   * Counts an admin code (TOTP or recovery) tried on this account, from any address, before it is
   * checked: past a few, each further one waits, doubling, as passwords do.
   */
  codeAttempt(email: string): Promise<number | null>;
  /** A code turned TOTP on: the account's code count is forgotten. */
  codeSucceeded(email: string): Promise<void>;
  /** Forgets the failed attempts on an account from this client (its password was just reset there). */
  forgetAccount(email: string, client: string): Promise<void>;
  /** Counts a registration from this client for this address. */
  registration(email: string, client: string): Promise<number | null>;
  /**
   * Counts an email asked for (verification resend, password reset) for this address from this
   * client, whether or not the address has an account, so the answer reveals nothing.
   */
  mail(kind: MailKind, email: string, client: string): Promise<{ limit: 'client' | 'address'; wait: number } | null>;
}
