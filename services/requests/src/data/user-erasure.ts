import type { UserErasure } from '../domain/forget-user.js';
import type { Person } from '../domain/ports.js';
import type { Collections } from './collections.js';

/**
 * Who a status change made by a deleted user is attributed to from then on. Not an address and
 * not an id any user can have (ids are ObjectIds).
 */
const DELETED_PERSON: Person = { userId: 'deleted-user', email: 'deleted user' };

/**
 * The deadline of one erasure step. Finding a user's requests and views filters on fields no
 * unique index covers, which the embedded server answers by scanning the collection: seconds at
 * 100k documents, over MONGO_TIMEOUT_MS, which is meant for the calls a person waits on. This
 * runs in the account-deleted consumer, once per deleted account, and must finish.
 */
export const ERASURE_TIMEOUT_MS = 60_000;
const slow = { timeoutMS: ERASURE_TIMEOUT_MS } as const;

export class UserErasureRepository implements UserErasure {
  constructor(private readonly c: Collections) {}

  async unlinkRequests(userId: string): Promise<number> {
    const own = await this.c.requests.updateMany({ 'requester.userId': userId }, { $set: { requester: null } }, slow);
    // A deleted admin's name leaves the history of every request they moved.
    await this.c.requests.updateMany(
      { 'status_history.by.userId': userId },
      { $set: { 'status_history.$[change].by': DELETED_PERSON } },
      { ...slow, arrayFilters: [{ 'change.by.userId': userId }] },
    );
    return own.modifiedCount;
  }

  async eraseViews(userId: string): Promise<number> {
    const views = await this.c.accessLog.find({ userId }, { ...slow, projection: { requestId: 1 } }).toArray();
    const opened = [...new Set(views.map((v) => `${userId}:${v.requestId}`))];
    // The first-view marks before the ledger: they are found through it, so a retry after a
    // crash in between still finds them.
    if (opened.length > 0) await this.c.userReports.deleteMany({ _id: { $in: opened } }, slow);
    const erased = await this.c.accessLog.deleteMany({ userId }, slow);
    return erased.deletedCount;
  }

  async eraseCredits(userId: string): Promise<number> {
    return (await this.c.creditPeriods.deleteMany({ userId }, slow)).deletedCount;
  }

  async eraseActivity(userId: string): Promise<void> {
    await this.c.activity.deleteOne({ _id: userId });
  }

  async directoryEntry(userId: string) {
    const doc = await this.c.directory.findOne({ _id: userId });
    return doc ? { registeredCounted: doc.registeredCounted, verifiedCounted: doc.verifiedCounted } : null;
  }

  async eraseDirectoryEntry(userId: string): Promise<void> {
    await this.c.directory.deleteOne({ _id: userId });
  }
}
