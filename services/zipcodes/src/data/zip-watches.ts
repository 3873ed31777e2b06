import { UserSet } from '@homereport/kit';
import type { Collection, Db } from 'mongodb';
import { type WatchStore, type Watcher, ZIP_WATCHES_LIMIT } from '../domain/zip-watches.js';

/**
 * One document per user, `_id` the user id: the watched ZIP codes, oldest first (the kit's
 * UserSet, so the pair user+ZIP is unique by construction and racing watches store it once), and
 * the address alerts go to (the one the user had when they last watched). The alert fan-out
 * reads the whole collection once per import that changed something, in pages.
 */
interface ZipWatchDoc {
  _id: string;
  email: string;
  zips: string[];
}

/** What an alert keeps for the outbox (events/published.ts): by `_id`, the event's id. */
interface ZipAlertDoc {
  _id: string;
  userId: string;
}

const ZIP_WATCHES_COLLECTION = 'zip_watches';
/** Watchers read per round trip by the fan-out. */
const WATCHERS_PAGE = 500;
/** Erasing a deleted user's alerts filters on userId, which no index covers: a scan, in the consumer only. */
const ERASURE_TIMEOUT_MS = 60_000;

export class ZipWatchesRepository implements WatchStore {
  private readonly watches: Collection<ZipWatchDoc>;
  private readonly zips: UserSet;
  private readonly alerts: Collection<ZipAlertDoc>;

  constructor(db: Db, alertsCollection: string) {
    this.watches = db.collection<ZipWatchDoc>(ZIP_WATCHES_COLLECTION);
    this.zips = new UserSet(db.collection(ZIP_WATCHES_COLLECTION), 'zips', ZIP_WATCHES_LIMIT);
    this.alerts = db.collection<ZipAlertDoc>(alertsCollection);
  }

  list(userId: string): Promise<string[]> {
    return this.zips.list(userId);
  }

  add(userId: string, email: string, zipCode: string): Promise<void> {
    return this.zips.add(userId, zipCode, { email });
  }

  async remove(userId: string, zipCode: string): Promise<void> {
    await this.zips.remove(userId, zipCode);
  }

  async forget(userId: string): Promise<void> {
    await this.zips.forget(userId);
    await this.alerts.deleteMany({ userId }, { timeoutMS: ERASURE_TIMEOUT_MS });
  }

  async *watchers(): AsyncIterable<Watcher> {
    const cursor = this.watches.find({}, { batchSize: WATCHERS_PAGE, timeoutMS: 0 });
    try {
      for await (const doc of cursor) {
        if (doc.zips?.length) yield { userId: doc._id, email: doc.email, zips: doc.zips };
      }
    } finally {
      await cursor.close();
    }
  }
}
