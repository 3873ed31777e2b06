import type { ActivityStore, HistoryEntry, UserActivity } from '../domain/ports.js';
import { type ActivityDoc, type Collections, isDuplicateKey } from './collections.js';

/** Recent views kept per user (the dashboard shows 5; the access-history call returns these). */
export const HISTORY_LENGTH = 50;
/** Own requests kept per user for the dashboard's "My requests". */
export const MY_REQUESTS_LENGTH = 100;

const EMPTY = { totalAccess: 0, uniqueReports: 0 } as const;

/** Per-user documents keyed by user id: counters, credit anchor, bounded recent lists. */
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
    // First view: set the anchor once; of racing first views, the first write wins and all read it.
    const set = await this.upsert(
      { _id: userId, anchor: null },
      { $set: { anchor: now }, $setOnInsert: { ...EMPTY, history: [], requests: [] } },
    );
    if (set?.anchor) return set.anchor;
    const after = await this.c.activity.findOne({ _id: userId }, { projection: { anchor: 1 } });
    if (!after?.anchor) throw new Error(`credit anchor of user ${userId} could not be set`);
    return after.anchor;
  }

  async addRequest(userId: string, requestId: string): Promise<void> {
    await this.upsert(
      { _id: userId, requests: { $ne: requestId } },
      {
        $push: { requests: { $each: [requestId], $slice: -MY_REQUESTS_LENGTH } },
        $setOnInsert: { ...EMPTY, history: [] },
      },
    );
  }

  async addView(userId: string, entry: HistoryEntry, firstEver: boolean): Promise<void> {
    // Once per view id: the entry stays in the (bounded) history long after any repetition.
    await this.upsert(
      { _id: userId, 'history.id': { $ne: entry.id } },
      {
        $inc: { totalAccess: 1, uniqueReports: firstEver ? 1 : 0 },
        $push: { history: { $each: [entry], $slice: -HISTORY_LENGTH } },
        $setOnInsert: { requests: [] },
      },
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

  /**
   * A conditional write that creates the user's document when missing. When the document exists
   * (or a racing write just created it), the upsert's insert fails with E11000; the same write
   * without upsert then applies if the condition holds, and null means it was done already.
   */
  private async upsert(filter: Record<string, unknown>, update: Record<string, unknown>): Promise<ActivityDoc | null> {
    try {
      return await this.c.activity.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return this.c.activity.findOneAndUpdate(filter, update, { returnDocument: 'after' });
  }
}
