import { isDuplicateKey } from '@homereport/kit';
import type { Db } from 'mongodb';
import { collections } from '../data/collections.js';

export interface UniqueReportsReport {
  /** "Seen" marks by request id given their property: none on a second run. */
  merged: number;
  /** Reports taken off a user's "unique reports": a second request id of a property they had seen. */
  uncounted: number;
}

/**
 * Issue 36: a user's "unique reports" counted request ids before properties (one `user_reports`
 * mark per `<user>:<request id>`), and counts properties since (reports.ts). Each mark by request
 * id becomes its property's, and a second id of one property is taken off the count. The mark by
 * property is written before the one by request id is removed, and a count comes off only when
 * this run removed that mark, so an interrupted run is simply run again.
 */
export async function uniqueReportsPerProperty(db: Db): Promise<UniqueReportsReport> {
  const c = collections(db);
  const report: UniqueReportsReport = { merged: 0, uncounted: 0 };
  for await (const mark of c.userReports.find({})) {
    const split = mark._id.lastIndexOf(':');
    const userId = mark._id.slice(0, split);
    const requestId = mark._id.slice(split + 1);
    // A mark by property names no request: nothing to do.
    const request = await c.requests.findOne({ _id: requestId }, { projection: { property_id: 1 } });
    if (!request?.property_id) continue;
    let second = false;
    try {
      await c.userReports.insertOne({
        _id: `${userId}:${request.property_id}`,
        firstViewId: mark.firstViewId,
        firstAt: mark.firstAt,
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      second = true;
    }
    const removed = await c.userReports.deleteOne({ _id: mark._id });
    if (removed.deletedCount !== 1) continue;
    report.merged++;
    if (second) {
      await c.activity.updateOne({ _id: userId, uniqueReports: { $gt: 0 } }, { $inc: { uniqueReports: -1 } });
      report.uncounted++;
    }
  }
  return report;
}
