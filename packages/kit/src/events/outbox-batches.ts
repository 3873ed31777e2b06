import type { Collection, Db } from 'mongodb';
import { namedError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { OutboxEntry } from './envelope.js';
import type { EventPublisher } from './publisher.js';
import type { SweepMarker, SweepOutcome, SweepSettings } from './sweep-loop.js';
import { backOffMarker } from './sweep-loop.js';

/**
 * The outbox of a collection written in groups (docs/decisions/004: leads' group commit): one
 * marker per batch instead of one per document. Each document carries its event as JSON text in
 * `event` and the id of the batch that stored it in `batch`, written by the same insert, so a
 * stored document always has its event. The marker, written before the insert, names the batch's
 * documents; once the events are on Kafka it goes. A marker still there means "these events may
 * not be published yet":
 *
 *  - normal path: right after the insert, the batch's events (already in memory) go out in one
 *    send and the marker is deleted by `_id`: two round trips per batch, none per document, and
 *    the documents are never rewritten (no `$pull`);
 *  - stragglers (Kafka away, a crash between insert and publish): the relay's sweep reads the
 *    markers that are due, reads their documents by `_id`, publishes the events of those that name
 *    this batch (a document the batch found already stored carries another write's event, which
 *    is that write's marker's business) and deletes the marker.
 *
 * Delivery is at least once; within one process a batch is never published by two paths at once.
 */
export interface BatchOutboxOptions {
  /** The collection whose documents carry `event` (JSON text) and `batch`. */
  collection: string;
  /** Where the markers live, one per batch whose events may not be published yet. */
  markers: string;
}

/** What a writer in groups needs from the relay (OutboxRelay provides it). */
export interface BatchOutbox {
  /** Before the batch's insert: from now on its events cannot be forgotten. */
  markBatch(batchId: string, ids: string[]): Promise<void>;
  /**
   * After the insert: publishes `events` (those of the documents this batch stored), then drops
   * the marker. Not awaited by the writer. On failure the marker is (re)armed for the sweep.
   */
  publishBatch(batchId: string, ids: string[], events: OutboxEntry[]): void;
}

interface BatchMarker extends SweepMarker {
  /** `_id`s of the batch's documents (those it stored carry `batch`: this `_id`). */
  ids: string[];
}

/** `event` is JSON text; documents stored by an older version may hold it as a document. */
type BatchedDoc = { _id: string; event?: string | OutboxEntry; batch?: string };

/** The batch markers of one OutboxRelay: marked and published by writers, swept by the relay. */
export class BatchMarkers {
  private readonly markers: Collection<BatchMarker>;
  private readonly docs: Collection<BatchedDoc>;
  /** Batches being published by this process (the sweep leaves them alone). */
  private readonly busy = new Set<string>();

  constructor(
    db: Db,
    options: BatchOutboxOptions,
    private readonly publisher: EventPublisher,
    private readonly logger: Logger,
    private readonly graceMs: number,
    private readonly settings: SweepSettings,
  ) {
    this.markers = db.collection<BatchMarker>(options.markers);
    this.docs = db.collection<BatchedDoc>(options.collection);
  }

  /** Markers waiting, and when the oldest was written (ms), for the outbox metrics. */
  async pending(): Promise<{ count: number; since: number }> {
    const [count, oldest] = await Promise.all([
      this.markers.estimatedDocumentCount(),
      // A marker's first retryAt is its write plus the grace period; later ones are later.
      this.markers
        .find({}, { projection: { retryAt: 1 } })
        .sort({ retryAt: 1 })
        .limit(1)
        .next(),
    ]);
    return { count, since: oldest ? oldest.retryAt.getTime() - this.graceMs : Number.POSITIVE_INFINITY };
  }

  async mark(batchId: string, ids: string[]): Promise<void> {
    await this.markers.insertOne({ _id: batchId, ids, retryAt: new Date(Date.now() + this.graceMs), attempts: 0 });
  }

  /** `running` false (the relay stopped): straight to the sweep of the next process to run. */
  async publishNow(batchId: string, ids: string[], events: OutboxEntry[], running: boolean): Promise<void> {
    this.busy.add(batchId);
    try {
      if (!running) throw new Error('relay stopped');
      await this.publisher.publish(events);
      await this.markers.deleteOne({ _id: batchId });
    } catch (err) {
      this.logger.debug({ err, batch: batchId }, 'outbox batch deferred to the sweep');
      // Upsert: a sweep that removed the marker early (a writer stalled longer than graceMs
      // between marker and insert) cannot lose these events.
      await this.markers
        .updateOne(
          { _id: batchId },
          {
            $set: { retryAt: new Date(Date.now() + this.settings.sweepIntervalMs) },
            $setOnInsert: { ids, attempts: 0 },
          },
          { upsert: true },
        )
        .catch(() => undefined);
    } finally {
      this.busy.delete(batchId);
    }
  }

  async sweep(): Promise<SweepOutcome> {
    const due = await this.markers
      .find({ retryAt: { $lte: new Date() } })
      .limit(100)
      .toArray();
    let published = 0;
    let failed = 0;
    for (const marker of due) {
      if (this.busy.has(marker._id)) continue;
      this.busy.add(marker._id);
      try {
        published += await this.publishMarked(marker);
        if (marker.attempts > 0) this.logger.info({ batch: marker._id }, 'outbox batch published after retries');
      } catch (err) {
        failed += 1;
        await this.backOff(marker, err);
      } finally {
        this.busy.delete(marker._id);
      }
    }
    return { due: due.length, failed, published };
  }

  private async publishMarked(marker: BatchMarker): Promise<number> {
    const docs = await this.docs.find({ _id: { $in: marker.ids } }, { projection: { event: 1, batch: 1 } }).toArray();
    const events = docs.flatMap((d) =>
      d.event && d.batch === marker._id
        ? [typeof d.event === 'string' ? (JSON.parse(d.event) as OutboxEntry) : d.event]
        : [],
    );
    await this.publisher.publish(events);
    await this.markers.deleteOne({ _id: marker._id });
    return events.length;
  }

  private async backOff(marker: BatchMarker, err: unknown): Promise<void> {
    const { attempts, error, stuck } = await backOffMarker(this.markers, marker, err, this.settings);
    const where = { batch: marker._id, attempts, error };
    if (stuck)
      this.logger.error({ ...where, err }, `outbox batch stuck: its events cannot be published (${namedError(err)})`);
    else this.logger.debug(where, 'outbox batch not published; will retry');
  }
}
