import type { Logger, OutboxEntry } from '@homereport/kit';
import type { Collection, Db } from 'mongodb';

/*
 * The outbox of lead-received events, one marker per batch instead of one per lead
 * (docs/decisions/004). Each lead document carries its event (`event`, JSON text), written by the
 * same insert that stores the lead, so a stored lead always has its event. Before a batch is inserted,
 * one marker names its leads (and each lead names its batch); once the events are on Kafka the
 * marker goes.
 * A marker that is still there means "these events may not be published yet":
 *
 *  - normal path: right after the insert, the batch's events (already in memory) are published in
 *    one send and the marker is deleted by `_id`: two round trips per batch, none per lead, and
 *    the lead documents are never rewritten;
 *  - stragglers (Kafka away, a crash between insert and publish): a sweep every second reads the
 *    markers that are due (a small collection: only batches not yet published), reads their leads
 *    by `_id`, publishes the events of those that name this batch (a lead the batch found already
 *    stored carries another write's event, which is that write's marker's business) and deletes
 *    the marker. A failing marker backs off on its own and is reported once when stuck.
 *
 * Delivery is at least once (a crash after the send and before the delete sends again, as does
 * a sweep of another replica racing this one's); consumers de-duplicate by event id. Within one
 * process a batch is never published by two paths at once.
 */

export interface EventSender {
  publish(events: OutboxEntry[]): Promise<void>;
}

interface BatchMarker {
  _id: string;
  /** `_id`s of the batch's lead documents (those stored by this batch carry `batch`: this `_id`). */
  ids: string[];
  /** The sweep looks at the marker from then on (pushed back after each failed attempt). */
  retryAt: Date;
  attempts: number;
  lastError?: string;
}

export interface LeadEventRelayOptions {
  sweepIntervalMs?: number;
  /** How long a new marker is left to its writer before the sweep may take it over. */
  graceMs?: number;
  maxBackoffMs?: number;
  stuckAfterAttempts?: number;
}

export const LEAD_EVENT_MARKERS = 'lead_event_batches';

export class LeadEventRelay {
  private readonly markers: Collection<BatchMarker>;
  /** `event` is JSON text; leads stored by an older version hold it as a document. */
  private readonly leads: Collection<{ _id: string; event?: string | OutboxEntry; batch?: string }>;
  private readonly sweepIntervalMs: number;
  private readonly graceMs: number;
  private readonly maxBackoffMs: number;
  private readonly stuckAfterAttempts: number;
  /** Batches being published by this process (the sweep leaves them alone). */
  private readonly busy = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;
  private stopped = true;
  private failingStreak = 0;

  constructor(
    db: Db,
    private readonly sender: EventSender,
    private readonly logger: Logger,
    options: LeadEventRelayOptions = {},
  ) {
    this.markers = db.collection<BatchMarker>(LEAD_EVENT_MARKERS);
    this.leads = db.collection('leads');
    this.sweepIntervalMs = options.sweepIntervalMs ?? 1000;
    this.graceMs = options.graceMs ?? 5000;
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
    await this.settled();
  }

  /** Resolves when every publish started so far has finished. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Before the batch's insert: from now on its events cannot be forgotten. */
  async mark(batchId: string, ids: string[]): Promise<void> {
    await this.markers.insertOne({
      _id: batchId,
      ids,
      retryAt: new Date(Date.now() + this.graceMs),
      attempts: 0,
    });
  }

  /**
   * After the insert: publishes the events of the leads this batch stored, then drops the marker.
   * Not awaited by the requests (their answer does not wait for Kafka). On failure the marker is
   * (re)armed for the sweep, recreated if a sweep removed it meanwhile.
   */
  publishNow(batchId: string, ids: string[], events: OutboxEntry[]): void {
    this.busy.add(batchId);
    const work = (async () => {
      try {
        if (this.stopped) throw new Error('relay stopped');
        await this.sender.publish(events);
        await this.markers.deleteOne({ _id: batchId });
      } catch (err) {
        this.logger.debug({ err, batch: batchId }, 'lead events deferred to the sweep');
        await this.markers
          .updateOne(
            { _id: batchId },
            {
              $set: { retryAt: new Date(Date.now() + this.sweepIntervalMs) },
              $setOnInsert: { ids, attempts: 0 },
            },
            { upsert: true },
          )
          .catch(() => undefined);
      } finally {
        this.busy.delete(batchId);
      }
    })();
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** One sweep over the markers that are due; returns how many events were published. */
  async drain(): Promise<number> {
    this.sweeping ??= this.sweep().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async sweep(): Promise<number> {
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
        const docs = await this.leads
          .find({ _id: { $in: marker.ids } }, { projection: { event: 1, batch: 1 } })
          .toArray();
        const events = docs.flatMap((d) =>
          d.event && d.batch === marker._id
            ? [typeof d.event === 'string' ? (JSON.parse(d.event) as OutboxEntry) : d.event]
            : [],
        );
        await this.sender.publish(events);
        await this.markers.deleteOne({ _id: marker._id });
        published += events.length;
        if (marker.attempts > 0) this.logger.info({ events: events.length }, 'lead events published after retries');
      } catch (err) {
        failed += 1;
        await this.backOff(marker, err);
      } finally {
        this.busy.delete(marker._id);
      }
    }
    if (failed > 0 && failed === due.length) {
      this.failingStreak += 1;
      // Loud once per outage, then quiet: Kafka away for minutes must not flood the log.
      if (this.failingStreak === 1) this.logger.warn({ failed }, 'lead events could not be published; will retry');
    } else if (due.length > 0) {
      if (this.failingStreak > 0) this.logger.info('lead event relay recovered; pending events published');
      this.failingStreak = 0;
    }
    return published;
  }

  private async backOff(marker: BatchMarker, err: unknown): Promise<void> {
    const attempts = marker.attempts + 1;
    const delay = Math.min(this.sweepIntervalMs * 2 ** Math.min(attempts, 10), this.maxBackoffMs);
    const message = String((err as Error)?.message ?? err).slice(0, 500);
    await this.markers
      .updateOne(
        { _id: marker._id },
        { $set: { retryAt: new Date(Date.now() + delay), lastError: message }, $inc: { attempts: 1 } },
      )
      .catch(() => undefined);
    if (attempts === this.stuckAfterAttempts) {
      this.logger.error({ batch: marker._id, attempts, error: message }, 'lead events stuck: they cannot be published');
    } else {
      this.logger.debug({ batch: marker._id, attempts, error: message }, 'lead events not published; will retry');
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(async () => {
      try {
        await this.drain();
      } catch (err) {
        // The database itself is away: readiness says so; try again next tick.
        this.logger.debug({ err }, 'lead event sweep failed');
      }
      this.schedule();
    }, this.sweepIntervalMs);
    this.timer.unref?.();
  }
}
