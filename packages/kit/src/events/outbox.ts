import type { Collection, Document } from 'mongodb';
import type { Logger } from '../logger.js';
import { DocumentLocks } from './document-locks.js';
import type { OutboxEntry } from './envelope.js';
import type { EventPublisher } from './publisher.js';

/**
 * The transactional outbox without transactions. FerretDB has no multi-document transactions,
 * so a state change and its events are one single-document write: the changed document carries
 * its pending events in an `outbox` array (`$push` beside the `$set`, or inside the inserted
 * document). This relay publishes them in order and then removes exactly the entries it published, so a
 * crash between the two re-publishes (at-least-once) and consumers de-duplicate by event id.
 */
export const OUTBOX_FIELD = 'outbox';

/** The mongoose schema path to add to every aggregate that emits events. */
export const outboxSchemaPath = { type: [Object], default: () => [], select: false };

export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private failures = 0;

  constructor(
    private readonly collections: Collection<Document>[],
    private readonly publisher: EventPublisher,
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
    /** Shared with the service's own writes to these documents (see document-locks.ts). */
    private readonly locks = new DocumentLocks(),
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Publish soon: call after a write that recorded events, so users don't wait for the poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One pass over every collection; returns how many events were published. */
  async drain(): Promise<number> {
    let published = 0;
    for (const collection of this.collections) {
      const docs = await collection
        .find({ [`${OUTBOX_FIELD}.0`]: { $exists: true } }, { projection: { [OUTBOX_FIELD]: 1 } })
        .limit(100)
        .toArray();
      for (const doc of docs) {
        const events = (doc[OUTBOX_FIELD] ?? []) as OutboxEntry[];
        if (events.length === 0) continue;
        await this.publisher.publish(events);
        await this.locks.run(String(doc._id), () =>
          collection.updateOne(
            { _id: doc._id },
            // $pullAll of the exact entries read: FerretDB v1 ignores $pull with a condition.
            { $pullAll: { [OUTBOX_FIELD]: events } } as Document,
          ),
        );
        published += events.length;
      }
    }
    return published;
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delay);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = (async () => {
      try {
        const n = await this.drain();
        if (n > 0) this.logger.debug({ published: n }, 'outbox events published');
        if (this.failures > 0) this.logger.info('outbox relay recovered; pending events published');
        this.failures = 0;
      } catch (err) {
        this.failures += 1;
        // Loud once, then quiet: Kafka being away for minutes should not flood the log.
        if (this.failures === 1 || this.failures % 30 === 0) {
          this.logger.warn({ err, failures: this.failures }, 'outbox relay could not publish; will retry');
        }
      }
    })();
    await this.running;
    this.running = null;
    if (this.stopped) return;
    const backoff =
      this.failures > 0 ? Math.min(this.intervalMs * 2 ** Math.min(this.failures, 4), 10000) : this.intervalMs;
    if (this.again) {
      this.again = false;
      this.schedule(0);
    } else this.schedule(backoff);
  }
}
