import { type OutboxEntry, type OutboxRecorder, isDuplicateKey } from '@homereport/kit';
import { Types, isValidObjectId } from 'mongoose';
import type { NewUser, PendingToken, UserRecord, UserStore, UserWithHash } from '../domain/ports.js';
import type { UserDocument, UserModel } from './user-model.js';

type Lean = Pick<UserDocument, '_id' | 'email' | 'role' | 'emailVerified' | 'plan' | 'created_at' | 'deleted_at'> & {
  passwordHash?: string;
};

// deleted_at comes along so a deleted account's remains are never taken for a user.
const PUBLIC_FIELDS = { email: 1, role: 1, emailVerified: 1, plan: 1, created_at: 1, deleted_at: 1 } as const;
/** What the conditional updates decide on. */
const CONDITION_FIELDS = { rev: 1, emailVerified: 1, verification: 1, reset: 1, deleted_at: 1 } as const;

/** Every field a deleted account loses at once (it keeps _id, rev, deleted_at and the outbox). */
const ACCOUNT_FIELDS = {
  passwordHash: 1,
  role: 1,
  emailVerified: 1,
  plan: 1,
  created_at: 1,
  verification: 1,
  reset: 1,
} as const;

const unexpired = (token: { expiresAt?: Date } | null | undefined, now: Date) =>
  token?.expiresAt instanceof Date && token.expiresAt.getTime() > now.getTime();

const toRecord = (doc: Lean): UserRecord => ({
  id: doc._id.toHexString(),
  email: doc.email,
  role: doc.role,
  emailVerified: doc.emailVerified,
  plan: doc.plan,
  created_at: doc.created_at,
});

/** What a deleted account's document holds in place of the email (not an address: no sign-in can match it). */
const deletedEmailPlaceholder = (userId: string) => `deleted:${userId}`;

/**
 * Users in the auth database; hands out plain objects only. Writes that record events go through
 * the outbox recorder, so the events are published at once and found again after a crash.
 */
export class UsersRepository implements UserStore {
  constructor(
    private readonly users: UserModel,
    private readonly outbox: OutboxRecorder,
  ) {}

  /**
   * A conditional update of one user, atomic on every server we run: read the user by `_id`,
   * decide in code, then write with a filter of exactly `{ _id, rev }` (a unique index) and bump
   * `rev`. A write that raced ours changed `rev`, so ours matches nothing and decides again.
   * Why not one `findOneAndUpdate({ _id, ...conditions })`: mongo-java-server uses an index only
   * for a filter with exactly its fields, so conditions beside `_id` scan the whole collection.
   * Returns whether the change was applied.
   */
  private async update(
    userId: string,
    accept: (doc: UserDocument & { rev?: number }) => boolean,
    change: Record<string, unknown>,
  ): Promise<boolean> {
    if (!isValidObjectId(userId)) return false;
    const _id = new Types.ObjectId(userId);
    const users = this.users.collection;
    for (let attempt = 0; attempt < 20; attempt++) {
      const doc = await users.findOne<UserDocument & { rev?: number }>({ _id }, { projection: CONDITION_FIELDS });
      if (!doc || !accept(doc)) return false;
      const write = () =>
        users.findOneAndUpdate(
          { _id, rev: doc.rev ?? null },
          { ...change, $inc: { rev: 1 } },
          { projection: { _id: 1 } },
        );
      const written = '$push' in change ? await this.outbox.record('users', _id, write) : await write();
      if (written) return true;
    }
    throw new Error(`user ${userId} kept changing under 20 attempts to update it`);
  }

  newId(): string {
    return new Types.ObjectId().toHexString();
  }

  async insert(user: NewUser, events: OutboxEntry[]): Promise<'created' | 'duplicate'> {
    try {
      await this.outbox.record('users', new Types.ObjectId(user.id), () =>
        this.users.create({
          _id: new Types.ObjectId(user.id),
          email: user.email,
          passwordHash: user.passwordHash,
          role: user.role,
          emailVerified: user.emailVerified,
          plan: 'free',
          created_at: user.created_at,
          rev: 0,
          ...(user.verification ? { verification: user.verification } : {}),
          outbox: events,
        }),
      );
      return 'created';
    } catch (err) {
      if (isDuplicateKey(err)) return 'duplicate';
      throw err;
    }
  }

  async findById(id: string): Promise<UserRecord | null> {
    if (!isValidObjectId(id)) return null;
    const doc = await this.users.findById(id, PUBLIC_FIELDS).lean<Lean>();
    return doc && !doc.deleted_at ? toRecord(doc) : null;
  }

  async findByIdWithHash(id: string): Promise<UserWithHash | null> {
    if (!isValidObjectId(id)) return null;
    const doc = await this.users.findById(id, { ...PUBLIC_FIELDS, passwordHash: 1 }).lean<Lean>();
    return doc?.passwordHash && !doc.deleted_at ? { ...toRecord(doc), passwordHash: doc.passwordHash } : null;
  }

  async findByEmail(email: string): Promise<UserWithHash | null> {
    const doc = await this.users.findOne({ email }, { ...PUBLIC_FIELDS, passwordHash: 1 }).lean<Lean>();
    return doc?.passwordHash && !doc.deleted_at ? { ...toRecord(doc), passwordHash: doc.passwordHash } : null;
  }

  async findByVerificationToken(tokenHash: string): Promise<UserRecord | null> {
    // By the unique sparse index on verification.tokenHash; expiry is the caller's to judge.
    const doc = await this.users.findOne({ 'verification.tokenHash': tokenHash }, PUBLIC_FIELDS).lean<Lean>();
    return doc ? toRecord(doc) : null;
  }

  async markVerified(userId: string, tokenHash: string, now: Date, events: OutboxEntry[]): Promise<boolean> {
    return this.update(
      userId,
      (doc) => !doc.emailVerified && doc.verification?.tokenHash === tokenHash && unexpired(doc.verification, now),
      // The used token stays (marked used) so a second click on the link can be told it is verified already.
      { $set: { emailVerified: true, 'verification.usedAt': now }, $push: { outbox: { $each: events } } },
    );
  }

  async replaceVerificationToken(userId: string, token: PendingToken, events: OutboxEntry[]): Promise<boolean> {
    return this.update(userId, (doc) => !doc.emailVerified, {
      $set: { verification: token },
      $push: { outbox: { $each: events } },
    });
  }

  async setResetToken(userId: string, token: PendingToken, events: OutboxEntry[]): Promise<boolean> {
    return this.update(userId, () => true, { $set: { reset: token }, $push: { outbox: { $each: events } } });
  }

  async findByResetToken(tokenHash: string, now: Date): Promise<UserRecord | null> {
    // By the unique sparse index alone (an extra condition would scan); expiry checked here.
    const doc = await this.users
      .findOne({ 'reset.tokenHash': tokenHash }, { ...PUBLIC_FIELDS, reset: 1 })
      .lean<Lean & Pick<UserDocument, 'reset'>>();
    return doc && unexpired(doc.reset, now) ? toRecord(doc) : null;
  }

  async resetPassword(userId: string, tokenHash: string, now: Date, passwordHash: string): Promise<boolean> {
    return this.update(userId, (doc) => doc.reset?.tokenHash === tokenHash && unexpired(doc.reset, now), {
      $set: { passwordHash },
      $unset: { reset: 1 },
    });
  }

  async updatePasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.update(userId, () => true, { $set: { passwordHash } });
  }

  async changePassword(userId: string, passwordHash: string): Promise<boolean> {
    return this.update(userId, (doc) => !doc.deleted_at, { $set: { passwordHash }, $unset: { reset: 1 } });
  }

  async markDeleted(userId: string, at: Date, events: OutboxEntry[]): Promise<boolean> {
    return this.update(userId, (doc) => !doc.deleted_at, {
      // The unique email index needs a value; this one is unique, no address, and can never sign in.
      $set: { email: deletedEmailPlaceholder(userId), deleted_at: at },
      $unset: ACCOUNT_FIELDS,
      $push: { outbox: { $each: events } },
    });
  }

  async promoteToAdmin(userId: string, changes: { passwordHash?: string }, events: OutboxEntry[]): Promise<boolean> {
    return this.update(userId, () => true, {
      $set: { role: 'admin', emailVerified: true, ...changes },
      $unset: { verification: 1 },
      ...(events.length > 0 ? { $push: { outbox: { $each: events } } } : {}),
    });
  }
}
