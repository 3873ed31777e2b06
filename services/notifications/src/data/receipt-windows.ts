import { againOnDuplicate } from '@homereport/kit';
import type { mongo } from 'mongoose';
import type { DueDigest, FoldedReceipt, ReceiptWindows } from '../domain/ports.js';
import type { Models, ReceiptWindowDoc } from './models.js';

/** Most folded receipts a digest lists by address; the rest it counts ("and 12 more"). */
export const DIGEST_LISTED = 50;

/**
 * ReceiptWindows in MongoDB: every decision is one atomic update of the window's document, so two
 * replicas consuming one account's receipts (or taking its digest) agree without talking.
 */
export function receiptWindowsRepository(models: Models): ReceiptWindows {
  // The driver's collection under the model, typed by its documents (string ids).
  const windows = models.ReceiptWindow.collection as unknown as mongo.Collection<ReceiptWindowDoc>;
  return {
    async count(windowId, { userId, to, hour }) {
      // Two replicas creating the window at once: the other's insert wins; this one counts into it.
      const doc = await againOnDuplicate(() =>
        windows.findOneAndUpdate(
          { _id: windowId },
          { $inc: { count: 1 }, $set: { to }, $setOnInsert: { userId, hour } },
          { upsert: true, returnDocument: 'after', projection: { count: 1 } },
        ),
      );
      if (!doc) throw new Error('the receipt window was not written');
      return doc.count;
    },

    async fold(windowId, receipt: FoldedReceipt, dueAt) {
      // Only into a digest nobody has taken yet, and once per event (a retried call folds nothing more).
      const res = await windows.updateOne(
        { _id: windowId, state: { $nin: ['sending', 'sent'] }, 'folded.eventId': { $ne: receipt.eventId } },
        {
          $push: { folded: { $each: [receipt], $slice: DIGEST_LISTED } },
          $inc: { foldedCount: 1 },
          $set: { state: 'pending' },
          // A digest released after a failed send keeps its later retry time.
          $max: { dueAt },
        },
      );
      if (res.matchedCount === 1) return 'folded';
      // Folded before (the digest, taken or not, tells of it), or the digest was taken without it.
      const doc = await windows.findOne({ _id: windowId }, { projection: { folded: 1 } });
      return doc?.folded?.some((r) => r.eventId === receipt.eventId) ? 'folded' : 'taken';
    },

    async takeDue(now, owner, leaseMs) {
      const doc = await windows.findOneAndUpdate(
        {
          $or: [
            { state: 'pending', dueAt: { $lte: now } },
            // Its sender stopped renewing (the process died mid-send): due again.
            { state: 'sending', leaseUntil: { $lt: now } },
          ],
        },
        { $set: { state: 'sending', owner, leaseUntil: new Date(now.getTime() + leaseMs) } },
        { returnDocument: 'after' },
      );
      if (!doc) return null;
      const folded = doc.folded ?? [];
      const digest: DueDigest = {
        id: doc._id,
        to: doc.to,
        hour: doc.hour,
        folded,
        // A window folded into before `foldedCount` was kept lists what it counted.
        foldedCount: Math.max(doc.foldedCount ?? 0, folded.length),
        attempts: doc.attempts ?? 0,
      };
      return digest;
    },

    async markSent(windowId, owner, sentAt) {
      await windows.updateOne(
        { _id: windowId, owner, state: 'sending' },
        { $set: { state: 'sent', sentAt }, $unset: { owner: '', leaseUntil: '' } },
      );
    },

    async release(windowId, owner, retryAt, error) {
      await windows.updateOne(
        { _id: windowId, owner, state: 'sending' },
        {
          $set: { state: 'pending', dueAt: retryAt, lastError: error.slice(0, 500) },
          $inc: { attempts: 1 },
          $unset: { owner: '', leaseUntil: '' },
        },
      );
    },

    async prune(before) {
      const res = await windows.deleteMany({ hour: { $lt: before }, state: { $nin: ['pending', 'sending'] } });
      return res.deletedCount;
    },
  };
}
