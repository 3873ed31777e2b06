import { isDuplicateKey } from '@homereport/kit';
import type { Collection, Db } from 'mongodb';
import { CREDITS_PER_PERIOD } from '../domain/credit-period.js';
import type { OpenedReports, ShareRecord, ShareStore } from '../domain/shares.js';
import type { Collections } from './collections.js';
import { ERASURE_TIMEOUT_MS } from './user-erasure.js';

/**
 * One document per share link, `_id` the link's share id (the token carries it): opening a link
 * is one read by the unique `_id` index, which the embedded server answers without a scan.
 */
interface ShareDoc {
  _id: string;
  userId: string;
  requestId: string;
  epoch: number;
  created_at: Date;
  expires_at: Date;
}

/**
 * One per user and report they ever shared, `_id: <userId>:<requestId>`: how many times they
 * revoked their links to it. Revoking is a single `$inc` here rather than an update of every
 * link (which would need a filter beside `_id`, a scan on the embedded server, and would not be
 * atomic across the links): a link whose epoch is below this count is revoked.
 */
interface RevocationDoc {
  _id: string;
  userId: string;
  requestId: string;
  epoch: number;
}

const ownerId = (userId: string, requestId: string) => `${userId}:${requestId}`;

export class SharesRepository implements ShareStore {
  private readonly shares: Collection<ShareDoc>;
  private readonly revocations: Collection<RevocationDoc>;

  constructor(db: Db) {
    this.shares = db.collection<ShareDoc>('shares');
    this.revocations = db.collection<RevocationDoc>('share_revocations');
  }

  async epoch(userId: string, requestId: string): Promise<number> {
    const doc = await this.revocations.findOne({ _id: ownerId(userId, requestId) }, { projection: { epoch: 1 } });
    return doc?.epoch ?? 0;
  }

  async insert(share: ShareRecord): Promise<void> {
    const { id, ...fields } = share;
    await this.shares.insertOne({ _id: id, ...fields });
  }

  async find(shareId: string): Promise<ShareRecord | null> {
    const doc = await this.shares.findOne({ _id: shareId });
    if (!doc) return null;
    const { _id, ...fields } = doc;
    return { id: _id, ...fields };
  }

  async revoke(userId: string, requestId: string): Promise<void> {
    const _id = ownerId(userId, requestId);
    const update = { $inc: { epoch: 1 } };
    try {
      await this.revocations.updateOne({ _id }, { ...update, $setOnInsert: { userId, requestId } }, { upsert: true });
    } catch (err) {
      // Two first revocations at once: the loser's upsert meets the winner's insert; its $inc still counts.
      if (!isDuplicateKey(err)) throw err;
      await this.revocations.updateOne({ _id }, update);
    }
  }

  async forget(userId: string): Promise<number> {
    // By user id, which no unique index covers: a scan, so the erasure's own deadline (user-erasure.ts).
    const slow = { timeoutMS: ERASURE_TIMEOUT_MS };
    const erased = await this.shares.deleteMany({ userId }, slow);
    await this.revocations.deleteMany({ userId }, slow);
    return erased.deletedCount;
  }
}

/**
 * The `opened` list of a user's credit period, read and written by `_id`. credits-repository.ts
 * adds the reports a user pays for; markOpened adds those opened free (their own, an admin's).
 */
export class OpenedReportsRepository implements OpenedReports {
  constructor(private readonly c: Collections) {}

  async wasOpened(userId: string, periodIndex: number, requestId: string): Promise<boolean> {
    const doc = await this.c.creditPeriods.findOne({ _id: `${userId}:${periodIndex}` }, { projection: { opened: 1 } });
    return doc?.opened.includes(requestId) ?? false;
  }

  async markOpened(userId: string, periodIndex: number, requestId: string): Promise<void> {
    const _id = `${userId}:${periodIndex}`;
    const update = { $addToSet: { opened: requestId } };
    try {
      await this.c.creditPeriods.updateOne(
        { _id },
        // The period's first open creates it as credits-repository.ts would, full allowance.
        { ...update, $setOnInsert: { userId, index: periodIndex, credits: CREDITS_PER_PERIOD } },
        { upsert: true },
      );
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await this.c.creditPeriods.updateOne({ _id }, update);
    }
  }
}
