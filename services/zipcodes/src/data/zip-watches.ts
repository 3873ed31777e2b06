import type { Collection, Db } from 'mongodb';
import type { WatchStore, Watcher } from '../domain/zip-watches.js';

/**
 * One document per user, `_id` the user id: the watched ZIP codes, oldest first, and the address
 * alerts go to (the one the user had when they last watched). A user's calls read and write by
 * `_id` alone (the embedded server scans for anything else), and `$addToSet` keeps each ZIP code
 * once, atomically: the pair user+ZIP is unique by construction, and racing watches store it once.
 * The alert fan-out reads the whole collection once per import that changed something, in pages.
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

/** Watchers read per round trip by the fan-out. */
const WATCHERS_PAGE = 500;
/** Erasing a deleted user's alerts filters on userId, which no index covers: a scan, in the consumer only. */
const ERASURE_TIMEOUT_MS = 60_000;

export class ZipWatchesRepository implements WatchStore {
  private readonly watches: Collection<ZipWatchDoc>;
  private readonly alerts: Collection<ZipAlertDoc>;

  constructor(db: Db, alertsCollection: string) {
    this.watches = db.collection<ZipWatchDoc>('zip_watches');
    this.alerts = db.collection<ZipAlertDoc>(alertsCollection);
  }

  async list(userId: string): Promise<string[]> {
    return (await this.watches.findOne({ _id: userId }, { projection: { zips: 1 } }))?.zips ?? [];
  }

  async add(userId: string, email: string, zipCode: string): Promise<void> {
    const update = { $addToSet: { zips: zipCode }, $set: { email } };
    try {
      await this.watches.updateOne({ _id: userId }, update, { upsert: true });
    } catch (err) {
      // Two first watches at once: the other created the document; add to it.
      if ((err as { code?: number }).code !== 11000) throw err;
      await this.watches.updateOne({ _id: userId }, update);
    }
  }

  async remove(userId: string, zipCode: string): Promise<void> {
    await this.watches.updateOne({ _id: userId }, { $pull: { zips: zipCode } });
  }

  async forget(userId: string): Promise<void> {
    await this.watches.deleteOne({ _id: userId });
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
