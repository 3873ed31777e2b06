import type { Db } from 'mongodb';
import { collections } from '../data/collections.js';
import { periodAt } from '../domain/credit-period.js';
import { RequestProperties, inBatches } from './request-properties.js';

export interface CreditsReport {
  /** Credit periods given the properties of the request ids they held: none on a second run. */
  periods: number;
  /** Credits given back: a second charge for one property in one period. */
  refunded: number;
}

/**
 * Issue 36: before properties a credit period's `opened` list held request ids, and each request
 * id of one house cost a credit; since, a view is charged per property (reports.ts). So that a
 * user who paid for a request id of a property before is not charged again for another of its
 * ids, and one who paid for two is charged once:
 *   - each period holding request ids gets their properties in `opened` (later views are free);
 *   - each charge beyond the first for one property in one period (the access log's charged
 *     views, before properties by request id, after by property) is given back.
 * Nothing is removed: the request ids stay in `opened`, every view stays in the log. A period is
 * done once per property (`merged` lists them), so a second run gives nothing back twice.
 */
export async function creditsPerProperty(db: Db): Promise<CreditsReport> {
  const c = collections(db);
  const report: CreditsReport = { periods: 0, refunded: 0 };
  const properties = new RequestProperties(c);
  // Each user's period anchor, read once per batch of views for the users not seen yet.
  const anchors = new Map<string, Date | null>();
  const loadAnchors = async (userIds: string[]) => {
    const missing = [...new Set(userIds)].filter((id) => !anchors.has(id));
    if (missing.length === 0) return;
    for (const id of missing) anchors.set(id, null);
    const docs = await c.activity.find({ _id: { $in: missing } }, { projection: { anchor: 1 } }).toArray();
    for (const doc of docs) anchors.set(doc._id, doc.anchor ?? null);
  };
  const periodOf = (userId: string, at: Date) => {
    const anchor = anchors.get(userId);
    return anchor ? `${userId}:${periodAt(anchor, at).index}` : null;
  };

  // Charges per period and property. First the views charged by request id (before properties):
  // only the periods and properties they touch can hold a second charge.
  const charges = new Map<string, Map<string, number>>();
  const count = (period: string, propertyId: string) => {
    const perProperty = charges.get(period) ?? new Map<string, number>();
    perProperty.set(propertyId, (perProperty.get(propertyId) ?? 0) + 1);
    charges.set(period, perProperty);
  };
  const projection = { userId: 1, requestId: 1, propertyId: 1, at: 1, charged: 1 } as const;
  for await (const views of inBatches(c.accessLog.find({}, { projection }))) {
    const byRequest = views.filter((view) => view.charged && !view.propertyId);
    await Promise.all([
      properties.load(byRequest.map((view) => view.requestId)),
      loadAnchors(byRequest.map((view) => view.userId)),
    ]);
    for (const view of byRequest) {
      const propertyId = properties.of(view.requestId);
      const period = periodOf(view.userId, view.at);
      if (propertyId && period) count(period, propertyId);
    }
  }
  // Then the views charged by property since, in those periods and properties only.
  for await (const views of inBatches(c.accessLog.find({}, { projection }))) {
    const byProperty = views.filter((view) => view.charged && view.propertyId);
    await loadAnchors(byProperty.map((view) => view.userId));
    for (const view of byProperty) {
      const period = periodOf(view.userId, view.at);
      if (period && view.propertyId && charges.get(period)?.has(view.propertyId)) count(period, view.propertyId);
    }
  }

  for await (const docs of inBatches(c.creditPeriods.find({}))) {
    await properties.load(docs.flatMap((doc) => doc.opened));
    for (const doc of docs) {
      const merged = new Set(doc.merged ?? []);
      const toMerge = new Set<string>();
      for (const id of doc.opened) {
        const propertyId = properties.of(id);
        if (propertyId && !merged.has(propertyId)) toMerge.add(propertyId);
      }
      for (const propertyId of charges.get(doc._id)?.keys() ?? []) if (!merged.has(propertyId)) toMerge.add(propertyId);
      if (toMerge.size === 0) continue;
      let refund = 0;
      for (const propertyId of toMerge) refund += Math.max(0, (charges.get(doc._id)?.get(propertyId) ?? 0) - 1);
      const each = [...toMerge];
      // By _id, one atomic write: a view being charged at this moment only adds to what it reads.
      await c.creditPeriods.updateOne(
        { _id: doc._id },
        { $addToSet: { opened: { $each: each }, merged: { $each: each } }, $inc: { credits: refund } },
      );
      report.periods++;
      report.refunded += refund;
    }
  }
  return report;
}
