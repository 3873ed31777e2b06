import { type IndexSpec, outboxSchemaPath } from '@homereport/kit';
import { type Connection, type Model, Schema, type Types } from 'mongoose';

interface TokenFields {
  tokenHash: string;
  expiresAt: Date;
  /** Set on a verification token once it verified the address (kept to recognise the link opened again). */
  usedAt?: Date;
}

export interface UserDocument {
  _id: Types.ObjectId;
  /** Trimmed and lower-cased (domain/email.ts), which makes the unique index case-insensitive. */
  email: string;
  /** argon2id, with its parameters; never selected unless asked for. */
  passwordHash: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
  plan: 'free';
  created_at: Date;
  /** The pending email verification, if any (sha256 of the token; one at a time). */
  verification?: TokenFields | null;
  /** The pending password reset, if any (sha256 of the token; one at a time). */
  reset?: TokenFields | null;
  /**
   * Set when the user deleted the account. The document then holds only its id, this time and
   * the account-deleted event until the relay publishes it; `email` is `deleted:<id>`.
   */
  deleted_at?: Date;
}

const tokenSchema = new Schema<TokenFields>(
  { tokenHash: { type: String, required: true }, expiresAt: { type: Date, required: true }, usedAt: Date },
  { _id: false },
);

// Untyped so the kit's shared (readonly) outbox path fits; the model below is typed.
const userSchema = new Schema(
  {
    email: { type: String, required: true },
    passwordHash: { type: String, required: true, select: false },
    role: { type: String, enum: ['user', 'admin'], required: true, default: 'user' },
    emailVerified: { type: Boolean, required: true, default: false },
    plan: { type: String, enum: ['free'], required: true, default: 'free' },
    created_at: { type: Date, required: true, default: () => new Date() },
    // Expiry lives in the document and is checked in each query: the embedded server has no TTL indexes.
    verification: { type: tokenSchema, default: undefined },
    reset: { type: tokenSchema, default: undefined },
    deleted_at: { type: Date, default: undefined },
    /** Bumped by every conditional update (compare-and-set on { _id, rev }). */
    rev: { type: Number, default: 0 },
    outbox: outboxSchemaPath,
  },
  { collection: 'users', versionKey: false, strict: true },
);

/**
 * The indexes of `users` this release reads through: created by the migrations (cli/migrate.ts),
 * checked at start, never declared on the schema (mongoose's syncIndexes dropped what a schema
 * did not declare, so two releases in a rollout dropped each other's: decision 028). Named as
 * mongoose named them when it built them, so databases built before keep theirs.
 */
export const INDEXES: IndexSpec[] = [
  // Sign-in, registration, resend and forgot-password look a user up by normalised email;
  // unique, so two accounts can never share an address (a racing duplicate fails with E11000).
  { collection: 'users', key: { email: 1 }, unique: true, name: 'email_1' },
  // POST /api/auth/verify-email finds the holder of a verification token by its hash. Unique (and
  // sparse, as most users hold none) because the embedded server only looks up through unique indexes.
  {
    collection: 'users',
    key: { 'verification.tokenHash': 1 },
    unique: true,
    sparse: true,
    name: 'verification.tokenHash_1',
  },
  // POST /api/auth/reset-password finds the holder of a reset token by its hash (unique, sparse: as above).
  { collection: 'users', key: { 'reset.tokenHash': 1 }, unique: true, sparse: true, name: 'reset.tokenHash_1' },
  // Every conditional update of a user writes with exactly { _id, rev } (users-repository.ts): the
  // embedded server uses an index only for a filter with exactly its fields.
  { collection: 'users', key: { _id: 1, rev: 1 }, unique: true, name: '_id_1_rev_1' },
];

export type UserModel = Model<UserDocument>;

export function userModel(conn: Connection): UserModel {
  return (conn.models.User as UserModel | undefined) ?? conn.model<UserDocument>('User', userSchema);
}
