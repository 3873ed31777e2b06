import type { Collection, Db, Document } from 'mongodb';
import type { Logger } from '../logger.js';
import type { OutboxEntry } from './envelope.js';
import type { EventPublisher } from './publisher.js';

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

interface Marker {
  _id: string;
  collection: string;
  docId: unknown;
  /** When a writer last announced a write to the document; the sweep waits `graceMs` after it. */
  touchedAt: Date;
  /** The sweep looks at the marker from then on (pushed back after each failed attempt). */
  retryAt: Date;
  attempts: number;
  lastError?: string;
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

export interface OutboxRelayOptions {
  /** How often the sweep looks for documents whose events did not go out at once. */
  sweepIntervalMs?: number;
  /** How long a marker is left alone after a write announced it (covers the write in flight). */
  graceMs?: number;
  /** Longest wait between two attempts at one failing document. */
  maxBackoffMs?: number;
  /** Attempts after which a document is reported as stuck (once, at error level). */
  stuckAfterAttempts?: number;
}

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
export class OutboxRelay implements OutboxRecorder {
  private readonly markers: Collection<Marker>;
  private readonly collections: Map<string, Collection<Document>>;
  private readonly sweepIntervalMs: number;
  private readonly graceMs: number;
  private readonly maxBackoffMs: number;
  private readonly stuckAfterAttempts: number;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;
  private stopped = true;
  private failingStreak = 0;

  constructor(
    db: Db,
    collectionNames: string[],
    private readonly publisher: EventPublisher,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.markers = db.collection<Marker>(OUTBOX_MARKERS);
    this.collections = new Map(collectionNames.map((name) => [name, db.collection(name)]));
    this.sweepIntervalMs = options.sweepIntervalMs ?? 1000;
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.stuckAfterAttempts = options.stuckAfterAttempts ?? 5;
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.sweeping;
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Runs a write that records events in document `docId` of `collection`, and publishes them.
   * The marker goes first: if the process dies after the write, the sweep still finds it.
   */
  async record<T>(collection: string, docId: unknown, write: () => Promise<T>): Promise<T> {
    this.collection(collection);
    await mark(this.markers, collection, docId, this.graceMs);
    const result = await write();
    if (!this.stopped) {
      // Not awaited: the caller's answer does not wait for Kafka. A failure is the sweep's job.
      const publishing = this.inOrder(collection, docId, () => this.publishDocument(collection, docId)).catch((err) =>
        this.logger.debug({ err, collection }, 'outbox publish deferred to the sweep'),
      );
      this.inFlight.add(publishing);
      void publishing.finally(() => this.inFlight.delete(publishing));
    }
    return result;
  }

  /** One sweep over the markers that are due; returns how many events were published. */
  async drain(): Promise<number> {
    this.sweeping ??= this.sweep().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  /** Resolves when every publish started by `record()` so far has finished. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async sweep(): Promise<number> {
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
    if (failed > 0 && failed === due.length) {
      this.failingStreak += 1;
      // Loud once per outage, then quiet: Kafka away for minutes must not flood the log.
      if (this.failingStreak === 1) this.logger.warn({ failed }, 'outbox relay could not publish; will retry');
    } else if (published > 0 || due.length > 0) {
      if (this.failingStreak > 0) this.logger.info('outbox relay recovered; pending events published');
      this.failingStreak = 0;
    }
    return published;
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
    const attempts = marker.attempts + 1;
    const delay = Math.min(this.sweepIntervalMs * 2 ** Math.min(attempts, 10), this.maxBackoffMs);
    const message = String((err as Error)?.message ?? err).slice(0, 500);
    await this.markers
      .findOneAndUpdate(
        { _id: marker._id },
        { $set: { retryAt: new Date(Date.now() + delay), lastError: message }, $inc: { attempts: 1 } },
      )
      .catch(() => undefined);
    const where = { collection: marker.collection, docId: String(marker.docId), attempts };
    if (attempts === this.stuckAfterAttempts) {
      this.logger.error({ ...where, error: message }, 'outbox document stuck: its events cannot be published');
    } else {
      this.logger.debug({ ...where, error: message }, 'outbox document not published; will retry');
    }
  }

  private collection(name: string): Collection<Document> {
    const coll = this.collections.get(name);
    if (!coll) throw new Error(`outbox relay does not watch collection '${name}'`);
    return coll;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(async () => {
      try {
        await this.drain();
      } catch (err) {
        // The database itself is away: readiness says so; try again next tick.
        this.logger.debug({ err }, 'outbox sweep failed');
      }
      this.schedule();
    }, this.sweepIntervalMs);
    this.timer.unref?.();
  }
}

function markerId(collection: string, docId: unknown): string {
  return `${collection}:${String(docId)}`;
}
