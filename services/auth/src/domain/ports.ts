import type { OutboxEntry, Role } from '@homereport/kit';

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
  /** The user holding this verification token, if it has not expired. */
  findByVerificationToken(tokenHash: string, now: Date): Promise<UserRecord | null>;
  /** Consumes the token (only if still held and unexpired) and marks the email verified. */
  markVerified(userId: string, tokenHash: string, now: Date, events: OutboxEntry[]): Promise<boolean>;
  /** Replaces the verification token of a still unverified user. */
  replaceVerificationToken(userId: string, token: PendingToken, events: OutboxEntry[]): Promise<boolean>;
  setResetToken(userId: string, token: PendingToken, events: OutboxEntry[]): Promise<boolean>;
  findByResetToken(tokenHash: string, now: Date): Promise<UserRecord | null>;
  /** Consumes the reset token (only if still held and unexpired) and stores the new hash. */
  resetPassword(userId: string, tokenHash: string, now: Date, passwordHash: string): Promise<boolean>;
  updatePasswordHash(userId: string, passwordHash: string): Promise<void>;
  /** Makes an existing user a verified admin with this password hash, in one write. */
  promoteToAdmin(userId: string, changes: { passwordHash?: string }, events: OutboxEntry[]): Promise<boolean>;
}

export interface Sessions {
  create(user: { userId: string; email: string; role: Role }): Promise<string>;
  revoke(token: string): Promise<void>;
  revokeAll(userId: string): Promise<number>;
}

/** Failed sign-in counting (per account and per client address). */
export interface SignInThrottle {
  /** Seconds to wait before trying again, or null when a sign-in may be attempted. */
  waitSeconds(accountKey: string, clientKey: string): Promise<number | null>;
  recordFailure(accountKey: string, clientKey: string): Promise<void>;
  /** Forget an account's failures (after it signed in, or its password was reset). */
  clearAccount(accountKey: string): Promise<void>;
}

/** At most one email of a kind per address in a short period, so a form cannot be used to flood an inbox. */
export interface MailCooldown {
  /** True when an email may be sent now (and starts the cooldown). */
  take(kind: 'verification' | 'reset', email: string): Promise<boolean>;
}
