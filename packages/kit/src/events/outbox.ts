import type { Collection, Db, Document } from 'mongodb';
import { namedError } from '../errors.js';
import type { Logger } from '../logger.js';
import { metricsEnabled, onScrape, outboxOldestAge, outboxPending } from '../metrics/registry.js';
import type { OutboxEntry } from './envelope.js';
import { BatchMarkers, type BatchOutbox, type BatchOutboxOptions } from './outbox-batches.js';
import type { EventPublisher } from './publisher.js';
import type { SweepMarker, SweepMessages, SweepOptions, SweepOutcome } from './sweep-loop.js';
import { SweepLoop, backOffMarker } from './sweep-loop.js';

/**
 * The transactional outbox without transactions. Our MongoDB-protocol servers have no
 * multi-document transactions, so a state change and its events are one single-document write:
 * the changed document carries its pending events in an `outbox` array (`$push` beside the
 * `$set`, or inside the inserted document). See docs/decisions/001 and 002.
 */
export const OUTBOX_FIELD = 'outbox';

/** The mongoose schema path to add to every aggregate that emits events. */
export const outboxSchemaPath = { type: [Object], default: () => [], select: false };

/** Where the relay remembers which documents may hold pending events. */
export const OUTBOX_MARKERS = 'outbox_pending';

interface Marker extends SweepMarker {
  collection: string;
  docId: unknown;
  /** When a writer last announced a write to the document; the sweep waits `graceMs` after it. */
  touchedAt: Date;
}

/** Runs a write that records events in a document so that they are published (see OutboxRelay.record). */
export interface OutboxRecorder {
  record<T>(collection: string, docId: unknown, write: () => Promise<T>): Promise<T>;
}

const DEFAULT_GRACE_MS = 5000;

async function mark(markers: Collection<Marker>, collection: string, docId: unknown, graceMs: number) {
  const now = Date.now();
  await markers.updateOne(
    { _id: markerId(collection, docId) },
    {
      $set: { collection, docId, touchedAt: new Date(now), retryAt: new Date(now + graceMs) },
      $setOnInsert: { attempts: 0 },
    },
    { upsert: true },
  );
}

/**
 * For a process without a relay (the create-admin command): marks and writes; the running
 * service's relay publishes the events at its next sweep.
 */
export function markingRecorder(db: Db): OutboxRecorder {
  const markers = db.collection<Marker>(OUTBOX_MARKERS);
  return {
    async record(collection, docId, write) {
      await mark(markers, collection, docId, 0);
      return write();
    },
  };
}

export interface OutboxRelayOptions extends SweepOptions {
  /** How long a marker is left alone after a write announced it (covers the write in flight). */
  graceMs?: number;
  /**
   * A collection written in groups, with one marker per batch instead of one per document
   * (outbox-batches.ts); its writer calls `markBatch` and `publishBatch`.
   */
  batches?: BatchOutboxOptions;
}

const OUTBOX_SWEEP_LOG: SweepMessages = {
  sweepFailed: 'outbox sweep failed',
  failing: 'outbox relay could not publish; will retry',
  recovered: 'outbox relay recovered; pending events published',
};

/**
 * Publishes the events that writes recorded inside documents, then removes exactly those entries.
 *
 * Normal path: `record()` marks the document, runs the write, and publishes that document's
 * events at once (one lookup by `_id`), so an event reaches Kafka milliseconds after its write.
 *
 * Stragglers (a crash between write and publish, Kafka away): the marker written *before* the
 * write stays in a small collection until the document is seen with an empty outbox, and a sweep
 * every second looks only at that collection. Its cost follows the number of documents with
 * pending events, not the size of the data: an idle service with 100k users reads an empty
 * collection. A document that cannot be published (a missing topic, an oversized message) backs
 * off on its own and is reported, while every other document keeps flowing.
 *
 * Delivery is at least once (a crash after publishing and before removing re-publishes);
 * consumers de-duplicate by event id.
 */
export class OutboxRelay implements OutboxRecorder, BatchOutbox {
  private readonly markers: Collection<Marker>;
  private readonly collections: Map<string, Collection<Document>>;
  private readonly graceMs: number;
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly loop: SweepLoop;
  private readonly batches: BatchMarkers | null;
  private stopReporting: (() => void) | null = null;

  constructor(
    db: Db,
    collectionNames: string[],
    private readonly publisher: EventPublisher,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.markers = db.collection<Marker>(OUTBOX_MARKERS);
    this.collections = new Map(collectionNames.map((name) => [name, db.collection(name)]));
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.loop = new SweepLoop(() => this.sweep(), logger, OUTBOX_SWEEP_LOG, options);
    this.batches = options.batches
      ? new BatchMarkers(db, options.batches, publisher, logger, this.graceMs, this.loop.settings)
      : null;
  }

  start(): void {
    this.loop.start();
    if (metricsEnabled()) this.stopReporting = onScrape(() => this.reportPending());
  }

  async stop(): Promise<void> {
    this.stopReporting?.();
    this.stopReporting = null;
    await this.loop.stop();
  }

  /**
   * Pending documents and the age of the oldest, for the metrics (read when scraped). A marker
   * stays for the grace period after its write even once published, so a few seconds is normal.
   */
  private async reportPending(): Promise<void> {
    const [count, oldest, batches] = await Promise.all([
      // The collection's own count, not a scan: read at every scrape.
      this.markers.estimatedDocumentCount(),
      this.markers
        .find({}, { projection: { touchedAt: 1 } })
        .sort({ touchedAt: 1 })
        .limit(1)
        .next(),
      this.batches?.pending(),
    ]);
    const pending = count + (batches?.count ?? 0);
    const since = Math.min(
      oldest?.touchedAt.getTime() ?? Number.POSITIVE_INFINITY,
      batches?.since ?? Number.POSITIVE_INFINITY,
    );
    outboxPending.set(pending);
    outboxOldestAge.set(Number.isFinite(since) ? Math.max(0, (Date.now() - since) / 1000) : 0);
  }

  /**
   * Runs a write that records events in document `docId` of `collection`, and publishes them.
   * The marker goes first: if the process dies after the write, the sweep still finds it.
   */
  async record<T>(collection: string, docId: unknown, write: () => Promise<T>): Promise<T> {
    this.collection(collection);
    await mark(this.markers, collection, docId, this.graceMs);
    const result = await write();
    if (this.loop.running) {
      // Not awaited: the caller's answer does not wait for Kafka. A failure is the sweep's job.
      this.loop.track(
        this.inOrder(collection, docId, () => this.publishDocument(collection, docId)).catch((err) =>
          this.logger.debug({ err, collection }, 'outbox publish deferred to the sweep'),
        ),
      );
    }
    return result;
  }

  async markBatch(batchId: string, ids: string[]): Promise<void> {
    await this.batchMarkers().mark(batchId, ids);
  }

  publishBatch(batchId: string, ids: string[], events: OutboxEntry[]): void {
    // Not awaited: the writer's answer does not wait for Kafka. A failure re-arms the marker.
    this.loop.track(this.batchMarkers().publishNow(batchId, ids, events, this.loop.running));
  }

  /** One sweep over the markers that are due; returns how many events were published. */
  async drain(): Promise<number> {
    return this.loop.drain();
  }

  /** Resolves when every publish started by `record()` so far has finished. */
  async settled(): Promise<void> {
    await this.loop.settled();
  }

  private async sweep(): Promise<SweepOutcome> {
    const documents = await this.sweepDocuments();
    if (!this.batches) return documents;
    const batches = await this.batches.sweep();
    return {
      due: documents.due + batches.due,
      failed: documents.failed + batches.failed,
      published: documents.published + batches.published,
    };
  }

  private async sweepDocuments(): Promise<SweepOutcome> {
    const now = new Date();
    const due = await this.markers
      .find({ retryAt: { $lte: now } })
      .limit(200)
      .toArray();
    let published = 0;
    let failed = 0;
    for (const marker of due) {
      try {
        const { sent, remaining } = await this.inOrder(marker.collection, marker.docId, () =>
          this.publishDocument(marker.collection, marker.docId),
        );
        published += sent;
        if (remaining === 0) {
          // Only if no writer announced a new write since we read the marker.
          await this.markers.deleteOne({ _id: marker._id, touchedAt: marker.touchedAt });
        }
        if (marker.attempts > 0)
          this.logger.info({ collection: marker.collection }, 'outbox document published after retries');
      } catch (err) {
        failed += 1;
        await this.backOff(marker, err);
      }
    }
    return { due: due.length, failed, published };
  }

  /**
   * Publishes of one document run one after another in this process: two writes in quick
   * succession would otherwise race their publishes and send the first event twice, possibly
   * after the second. (Across replicas the consumers' de-duplication covers it.)
   */
  private inOrder<T>(collection: string, docId: unknown, publish: () => Promise<T>): Promise<T> {
    const key = markerId(collection, docId);
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(publish);
    const tail = next.catch(() => undefined);
    this.chains.set(key, tail);
    void tail.finally(() => {
      if (this.chains.get(key) === tail) this.chains.delete(key);
    });
    return next;
  }

  private async publishDocument(collection: string, docId: unknown): Promise<{ sent: number; remaining: number }> {
    const coll = this.collection(collection);
    const doc = await coll.findOne({ _id: docId as Document['_id'] }, { projection: { [OUTBOX_FIELD]: 1 } });
    const events = ((doc?.[OUTBOX_FIELD] ?? []) as OutboxEntry[]).filter(Boolean);
    if (events.length === 0) return { sent: 0, remaining: 0 };
    await this.publisher.publish(events);
    const after = await coll.findOneAndUpdate(
      { _id: docId as Document['_id'] },
      { $pull: { [OUTBOX_FIELD]: { id: { $in: events.map((e) => e.id) } } } } as Document,
      { projection: { [OUTBOX_FIELD]: 1 }, returnDocument: 'after' },
    );
    return { sent: events.length, remaining: ((after?.[OUTBOX_FIELD] ?? []) as unknown[]).length };
  }

  private async backOff(marker: Marker, err: unknown): Promise<void> {
    const { attempts, error, stuck } = await backOffMarker(this.markers, marker, err, this.loop.settings);
    const where = { collection: marker.collection, docId: String(marker.docId), attempts };
    if (stuck) {
      this.logger.error(
        { ...where, err, error },
        `outbox document stuck: its events cannot be published (${marker.collection}: ${namedError(err)})`,
      );
    } else {
      this.logger.debug({ ...where, error }, 'outbox document not published; will retry');
    }
  }

  private batchMarkers(): BatchMarkers {
    if (!this.batches) throw new Error('outbox relay was started without `batches`');
    return this.batches;
  }

  private collection(name: string): Collection<Document> {
    const coll = this.collections.get(name);
    if (!coll) throw new Error(`outbox relay does not watch collection '${name}'`);
    return coll;
  }
}

function markerId(collection: string, docId: unknown): string {
  return `${collection}:${String(docId)}`;
}
