import { databaseOf, isDuplicateKey } from '@homereport/kit';
import type { Connection } from 'mongoose';
import type { MfaRecord, MfaStore } from '../domain/admin-mfa.js';

interface MfaDocument {
  _id: string;
  /** The active secret, sealed with EVENT_SECRET_KEY: a database dump alone yields no codes. */
  secret?: string;
  /** A secret handed out for enrolment, not yet confirmed with a code. */
  pending?: string;
  enabled_at?: Date;
  /** sha256 of each unused recovery code. */
  recovery?: string[];
  /** The last TOTP step accepted: a code is good once. */
  last_step?: number;
}

/** Admins' second factors, one document per user id, in auth's own database. */
export class MongoMfaStore implements MfaStore {
  private readonly docs;

  constructor(mongo: Connection) {
    this.docs = databaseOf(mongo).collection<MfaDocument>('admin_mfa');
  }

  async find(userId: string): Promise<MfaRecord | null> {
    const doc = await this.docs.findOne({ _id: userId });
    if (!doc) return null;
    return {
      secret: doc.secret ?? null,
      pending: doc.pending ?? null,
      lastStep: doc.last_step ?? -1,
    };
  }

  async setPending(userId: string, sealed: string): Promise<boolean> {
    // Only while no secret is active: enrolling again needs TOTP switched off first.
    const res = await this.docs
      .updateOne({ _id: userId, secret: { $exists: false } }, { $set: { pending: sealed } }, { upsert: true })
      .catch((err: unknown) => {
        if (isDuplicateKey(err)) return null; // an active document exists: the filter missed it
        throw err;
      });
    return res !== null;
  }

  async activate(userId: string, pending: string, step: number, recoveryHashes: string[]): Promise<boolean> {
    const res = await this.docs.updateOne(
      { _id: userId, pending, secret: { $exists: false } },
      {
        $set: { secret: pending, enabled_at: new Date(), recovery: recoveryHashes, last_step: step },
        $unset: { pending: '' },
      },
    );
    return res.modifiedCount === 1;
  }

  async useStep(userId: string, step: number): Promise<boolean> {
    const res = await this.docs.updateOne(
      { _id: userId, $or: [{ last_step: { $lt: step } }, { last_step: { $exists: false } }] },
      { $set: { last_step: step } },
    );
    return res.modifiedCount === 1;
  }

  async useRecoveryCode(userId: string, hash: string): Promise<boolean> {
    const res = await this.docs.updateOne({ _id: userId, recovery: hash }, { $pull: { recovery: hash } });
    return res.modifiedCount === 1;
  }
}
