import { outboxSchemaPath } from '@homereport/kit';
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

// Sign-in, registration, resend and forgot-password look a user up by normalised email;
// unique, so two accounts can never share an address (a racing duplicate fails with E11000).
userSchema.index({ email: 1 }, { unique: true });
// POST /api/auth/verify-email finds the holder of a verification token by its hash. Unique (and
// sparse, as most users hold none) because the embedded server only looks up through unique indexes.
userSchema.index({ 'verification.tokenHash': 1 }, { unique: true, sparse: true });
// POST /api/auth/reset-password finds the holder of a reset token by its hash (unique, sparse: as above).
userSchema.index({ 'reset.tokenHash': 1 }, { unique: true, sparse: true });
// Every conditional update of a user writes with exactly { _id, rev } (users-repository.ts): the
// embedded server uses an index only for a filter with exactly its fields.
userSchema.index({ _id: 1, rev: 1 }, { unique: true });

export type UserModel = Model<UserDocument>;

export function userModel(conn: Connection): UserModel {
  return (conn.models.User as UserModel | undefined) ?? conn.model<UserDocument>('User', userSchema);
}
