import type { Collection, Db } from 'mongodb';
import type { SavedReportStore } from '../domain/saved-reports.js';
import { isDuplicateKey } from './collections.js';

/**
 * One document per user, `_id` the user id: the user's saved request ids, oldest first. A user's
 * calls then read and write by `_id` alone (the embedded server scans for anything else), and
 * `$addToSet` keeps each request in the list once, atomically, so the pair user+request is unique
 * by construction: two racing saves of one report store it once.
 */
export interface SavedReportsDoc {
  _id: string;
  ids: string[];
}

export const SAVED_REPORTS_COLLECTION = 'saved_reports';

export class SavedReportsRepository implements SavedReportStore {
  private readonly saved: Collection<SavedReportsDoc>;

  constructor(db: Db) {
    this.saved = db.collection<SavedReportsDoc>(SAVED_REPORTS_COLLECTION);
  }

  async list(userId: string): Promise<string[]> {
    return (await this.saved.findOne({ _id: userId }))?.ids ?? [];
  }

  async add(userId: string, requestId: string): Promise<void> {
    try {
      await this.saved.updateOne({ _id: userId }, { $addToSet: { ids: requestId } }, { upsert: true });
    } catch (err) {
      // Two first saves at once: the other created the document; add to it.
      if (!isDuplicateKey(err)) throw err;
      await this.saved.updateOne({ _id: userId }, { $addToSet: { ids: requestId } });
    }
  }

  async remove(userId: string, requestId: string): Promise<boolean> {
    const res = await this.saved.updateOne({ _id: userId }, { $pull: { ids: requestId } });
    return res.modifiedCount > 0;
  }

  async forget(userId: string): Promise<void> {
    await this.saved.deleteOne({ _id: userId });
  }
}
