import { isDuplicateKey } from '@homereport/kit';
import type { Db } from 'mongodb';
import { collections } from '../data/collections.js';
import { RequestProperties, inBatches } from './request-properties.js';

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
  const properties = new RequestProperties(c);
  const report: UniqueReportsReport = { merged: 0, uncounted: 0 };
  for await (const marks of inBatches(c.userReports.find({}))) {
    const split = marks.map((mark) => {
      const at = mark._id.lastIndexOf(':');
      return { mark, userId: mark._id.slice(0, at), requestId: mark._id.slice(at + 1) };
    });
    await properties.load(split.map((s) => s.requestId));
    for (const { mark, userId, requestId } of split) {
      // A mark by property names no request: nothing to do.
      const propertyId = properties.of(requestId);
      if (!propertyId) continue;
      let second = false;
      try {
        await c.userReports.insertOne({
          _id: `${userId}:${propertyId}`,
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
  }
  return report;
}
