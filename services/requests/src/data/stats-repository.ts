import type { CountDelta, RequestCounts, StatsStore, UserCounts } from '../domain/ports.js';
import type { Collections, StatsDoc } from './collections.js';

/**
 * How many effect ids a counter document remembers. An effect is applied by the request that
 * caused it and, only if that was interrupted, again by the backstop consumer moments later;
 * the window must cover the applications that can happen in between.
 */
const SEEN_WINDOW = 500;

const n = (value: number | undefined) => Math.max(0, value ?? 0);

export class StatsRepository implements StatsStore {
  constructor(private readonly c: Collections) {}

  /**
   * One conditional write: the $inc and the "seen" mark land together or not at all. The only
   * filter beyond _id in this service: the embedded server scans for it, and this collection
   * holds two documents.
   */
  private async apply(_id: StatsDoc['_id'], effectId: string, delta: Record<string, number>): Promise<boolean> {
    const doc = await this.c.stats.findOneAndUpdate(
      { _id, seen: { $ne: effectId } },
      { $inc: delta, $push: { seen: { $each: [effectId], $slice: -SEEN_WINDOW } } },
      { projection: { _id: 1 } },
    );
    return doc !== null;
  }

  applyRequestDelta(effectId: string, delta: CountDelta): Promise<boolean> {
    return this.apply('requests', effectId, delta as Record<string, number>);
  }

  applyUserDelta(effectId: string, delta: Partial<UserCounts>): Promise<boolean> {
    return this.apply('users', effectId, delta as Record<string, number>);
  }

  async requestCounts(): Promise<RequestCounts> {
    const doc = await this.c.stats.findOne({ _id: 'requests' }, { projection: { seen: 0 } });
    return {
      total: n(doc?.total),
      properties: n(doc?.properties),
      requested: n(doc?.requested),
      in_progress: n(doc?.in_progress),
      covered: n(doc?.covered),
      totalAccess: n(doc?.totalAccess),
    };
  }

  async userCounts(): Promise<UserCounts> {
    const doc = await this.c.stats.findOne({ _id: 'users' }, { projection: { seen: 0 } });
    return { totalUsers: n(doc?.totalUsers), verifiedUsers: n(doc?.verifiedUsers) };
  }
}
