import { randomBytes } from 'node:crypto';
import type { ZipWatchAlerted } from '@homereport/contracts';
import { type BatchOutbox, duplicatesOfBulkWrite } from '@homereport/kit';
import type { Collection, Db } from 'mongodb';
import type { AlertSink } from '../domain/zip-watches.js';
import { ZIP_ALERT_BATCHES, zipWatchAlerted } from '../events/published.js';

/** An alert as stored: its event (JSON text) and the batch that stored it, as the kit's batch outbox reads them. */
interface ZipAlertDoc {
  _id: string;
  userId: string;
  event: string;
  batch: string;
  createdAt: Date;
}

/**
 * Writes alerts in groups through the kit's batch outbox (decision 004's pattern, as leads do):
 * the marker first, then one unordered insert whose `_id` is the event id, so an alert written
 * twice is stored (and so published and emailed) once; then the stored alerts' events go out.
 */
export class ZipAlertsRepository implements AlertSink {
  private readonly alerts: Collection<ZipAlertDoc>;

  constructor(
    db: Db,
    private readonly outbox: BatchOutbox,
  ) {
    this.alerts = db.collection<ZipAlertDoc>(ZIP_ALERT_BATCHES.collection);
  }

  async record(alerts: ZipWatchAlerted[]): Promise<void> {
    if (alerts.length === 0) return;
    const batch = randomBytes(9).toString('base64url');
    const entries = alerts.map(zipWatchAlerted);
    const ids = entries.map((e) => e.id);
    await this.outbox.markBatch(batch, ids);
    const createdAt = new Date();
    const docs = entries.map((e, i) => ({
      _id: e.id,
      userId: alerts[i]?.userId ?? '',
      event: JSON.stringify(e),
      batch,
      createdAt,
    }));
    let already = new Set<number>();
    try {
      await this.alerts.insertMany(docs, { ordered: false });
    } catch (err) {
      // Any error but "already stored" leaves the marker to the relay's sweep, which publishes
      // whatever this batch did store; the caller hears of the failure.
      const duplicates = duplicatesOfBulkWrite(err);
      if (!duplicates) throw err;
      already = new Set(duplicates);
    }
    this.outbox.publishBatch(
      batch,
      ids,
      entries.filter((_e, i) => !already.has(i)),
    );
  }
}

/**
 * For the zip:import command, which runs no relay: marks each batch for the running service's
 * relay to publish at its sweep (as the kit's markingRecorder does for single documents). The
 * marker is due after a grace period that covers the insert following it: a sweep that ran
 * before the insert would find nothing to publish and drop the marker.
 */
export function markingBatchOutbox(db: Db, graceMs = 5000): BatchOutbox {
  const markers = db.collection<{ _id: string; ids: string[]; retryAt: Date; attempts: number }>(
    ZIP_ALERT_BATCHES.markers,
  );
  return {
    async markBatch(batchId, ids) {
      await markers.insertOne({ _id: batchId, ids, retryAt: new Date(Date.now() + graceMs), attempts: 0 });
    },
    publishBatch() {},
  };
}
