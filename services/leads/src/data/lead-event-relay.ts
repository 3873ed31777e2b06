import type { Logger, OutboxEntry, SweepMarker, SweepMessages, SweepOptions, SweepOutcome } from '@homereport/kit';
import { SweepLoop, backOffMarker } from '@homereport/kit';
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

interface BatchMarker extends SweepMarker {
  /** `_id`s of the batch's lead documents (those stored by this batch carry `batch`: this `_id`). */
  ids: string[];
}

export interface LeadEventRelayOptions extends SweepOptions {
  /** How long a new marker is left to its writer before the sweep may take it over. */
  graceMs?: number;
}

export const LEAD_EVENT_MARKERS = 'lead_event_batches';

const LEAD_SWEEP_LOG: SweepMessages = {
  sweepFailed: 'lead event sweep failed',
  failing: 'lead events could not be published; will retry',
  recovered: 'lead event relay recovered; pending events published',
};

export class LeadEventRelay {
  private readonly markers: Collection<BatchMarker>;
  /** `event` is JSON text; leads stored by an older version hold it as a document. */
  private readonly leads: Collection<{ _id: string; event?: string | OutboxEntry; batch?: string }>;
  private readonly graceMs: number;
  /** Batches being published by this process (the sweep leaves them alone). */
  private readonly busy = new Set<string>();
  private readonly loop: SweepLoop;

  constructor(
    db: Db,
    private readonly sender: EventSender,
    private readonly logger: Logger,
    options: LeadEventRelayOptions = {},
  ) {
    this.markers = db.collection<BatchMarker>(LEAD_EVENT_MARKERS);
    this.leads = db.collection('leads');
    this.graceMs = options.graceMs ?? 5000;
    this.loop = new SweepLoop(() => this.sweep(), logger, LEAD_SWEEP_LOG, options);
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Resolves when every publish started so far has finished. */
  async settled(): Promise<void> {
    await this.loop.settled();
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
        if (!this.loop.running) throw new Error('relay stopped');
        await this.sender.publish(events);
        await this.markers.deleteOne({ _id: batchId });
      } catch (err) {
        this.logger.debug({ err, batch: batchId }, 'lead events deferred to the sweep');
        await this.markers
          .updateOne(
            { _id: batchId },
            {
              $set: { retryAt: new Date(Date.now() + this.loop.settings.sweepIntervalMs) },
              $setOnInsert: { ids, attempts: 0 },
            },
            { upsert: true },
          )
          .catch(() => undefined);
      } finally {
        this.busy.delete(batchId);
      }
    })();
    this.loop.track(work);
  }

  /** One sweep over the markers that are due; returns how many events were published. */
  async drain(): Promise<number> {
    return this.loop.drain();
  }

  private async sweep(): Promise<SweepOutcome> {
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
    return { due: due.length, failed, published };
  }

  private async backOff(marker: BatchMarker, err: unknown): Promise<void> {
    const { attempts, error, stuck } = await backOffMarker(this.markers, marker, err, this.loop.settings);
    if (stuck) {
      this.logger.error({ batch: marker._id, attempts, error }, 'lead events stuck: they cannot be published');
    } else {
      this.logger.debug({ batch: marker._id, attempts, error }, 'lead events not published; will retry');
    }
  }
}
