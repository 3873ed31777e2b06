import { isDuplicateKey } from '@homereport/kit';
import type { ActivityStore, HistoryEntry, UserActivity } from '../domain/ports.js';
import type { ActivityDoc, Collections } from './collections.js';

/** Recent views kept per user (the dashboard shows 5; the access-history call returns these). */
const HISTORY_LENGTH = 50;
/** Own requests kept per user for the dashboard's "My requests". */
const MY_REQUESTS_LENGTH = 100;

/**
 * Per-user documents keyed by user id: counters, credit anchor, bounded recent lists. Every
 * write is by `_id` alone (a filter with more scans the collection on mongo-java-server).
 */
export class ActivityRepository implements ActivityStore {
  constructor(private readonly c: Collections) {}

  async find(userId: string): Promise<UserActivity | null> {
    const doc = await this.c.activity.findOne({ _id: userId });
    if (!doc) return null;
    return {
      userId,
      anchor: doc.anchor ?? null,
      totalAccess: doc.totalAccess ?? 0,
      uniqueReports: doc.uniqueReports ?? 0,
      history: doc.history ?? [],
      requests: doc.requests ?? [],
    };
  }

  async ensureAnchor(userId: string, now: Date): Promise<Date> {
    const existing = await this.c.activity.findOne({ _id: userId }, { projection: { anchor: 1 } });
    if (existing?.anchor) return existing.anchor;
    // First view: $min keeps the earliest of racing first views, and never moves a set anchor.
    const doc = await this.write(
      userId,
      { $min: { anchor: now } },
      { totalAccess: 0, uniqueReports: 0, history: [], requests: [] },
    );
    return doc?.anchor ?? now;
  }

  async addRequest(userId: string, requestId: string): Promise<void> {
    // $addToSet: adding the same request again (a repeated effect) changes nothing.
    const before = await this.write(
      userId,
      { $addToSet: { requests: requestId } },
      { totalAccess: 0, uniqueReports: 0, history: [] },
      'before',
    );
    if ((before?.requests?.length ?? 0) >= MY_REQUESTS_LENGTH) {
      await this.c.activity.updateOne(
        { _id: userId },
        { $push: { requests: { $each: [], $slice: -MY_REQUESTS_LENGTH } } },
      );
    }
  }

  async addView(userId: string, entry: HistoryEntry, firstEver: boolean): Promise<void> {
    // Once per view: the caller holds the view's claim (ledger), so this is not repeated.
    await this.write(
      userId,
      {
        $inc: { totalAccess: 1, uniqueReports: firstEver ? 1 : 0 },
        $push: { history: { $each: [entry], $slice: -HISTORY_LENGTH } },
      },
      { requests: [] },
    );
  }

  async firstView(userId: string, requestId: string, viewId: string, at: Date): Promise<boolean> {
    const _id = `${userId}:${requestId}`;
    try {
      await this.c.userReports.insertOne({ _id, firstViewId: viewId, firstAt: at });
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const doc = await this.c.userReports.findOne({ _id });
    return doc?.firstViewId === viewId;
  }

  /** An update by `_id` that creates the document when missing (a racing creator's E11000 is retried). */
  private async write(
    userId: string,
    update: Record<string, unknown>,
    onInsert: Record<string, unknown>,
    returnDocument: 'before' | 'after' = 'after',
  ): Promise<ActivityDoc | null> {
    try {
      return await this.c.activity.findOneAndUpdate(
        { _id: userId },
        { ...update, $setOnInsert: onInsert },
        { upsert: true, returnDocument },
      );
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return this.c.activity.findOneAndUpdate({ _id: userId }, update, { returnDocument });
    }
  }
}
