import type { Collection } from 'mongodb';
import type { Logger } from '../logger.js';

/**
 * The machinery of the relay that publishes events recorded beside a write (OutboxRelay, with its
 * per-document and per-batch markers): a sweep every `sweepIntervalMs` over markers of events that
 * may not be published yet, a back-off per failing marker, and one warning per outage. What a
 * marker names, which markers are due and how their events are published stay with each kind.
 */
export interface SweepOptions {
  /** How often the sweep looks for markers whose events did not go out at once. */
  sweepIntervalMs?: number;
  /** Longest wait between two attempts at one failing marker. */
  maxBackoffMs?: number;
  /** Attempts after which a marker is reported as stuck (once, at error level). */
  stuckAfterAttempts?: number;
}

export type SweepSettings = Required<SweepOptions>;

/** The fields of a marker that the back-off reads and writes; relays add what the marker names. */
export interface SweepMarker {
  _id: string;
  /** The sweep looks at the marker from then on (pushed back after each failed attempt). */
  retryAt: Date;
  attempts: number;
  lastError?: string;
}

/** What one sweep did: markers it found due, how many of them failed, events it published. */
export interface SweepOutcome {
  due: number;
  failed: number;
  published: number;
}

/** The relay's own log lines, so operators keep grepping what they always did. */
export interface SweepMessages {
  /** Debug: a whole sweep threw. */
  sweepFailed: string;
  /** Warn: every due marker of a sweep failed, the first time in a row. */
  failing: string;
  /** Info: a sweep got through again after failing ones. */
  recovered: string;
}

/** The timer loop of a relay: start/stop, one sweep at a time, and the publishes it started. */
export class SweepLoop {
  readonly settings: SweepSettings;
  private readonly inFlight = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;
  private stopped = true;
  private failingStreak = 0;

  constructor(
    private readonly sweep: () => Promise<SweepOutcome>,
    private readonly logger: Logger,
    private readonly messages: SweepMessages,
    options: SweepOptions = {},
  ) {
    this.settings = {
      sweepIntervalMs: options.sweepIntervalMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 10_000,
      stuckAfterAttempts: options.stuckAfterAttempts ?? 5,
    };
  }

  /** Between `start()` and `stop()`. */
  get running(): boolean {
    return !this.stopped;
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

  /** One sweep; a call while one runs joins it. Returns how many events were published. */
  async drain(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  /** Keeps `work` (a publish outside the sweep) for `settled()` and `stop()` to wait on. */
  track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Resolves when every publish tracked so far has finished. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async sweepOnce(): Promise<number> {
    const { due, failed, published } = await this.sweep();
    if (failed > 0 && failed === due) {
      this.failingStreak += 1;
      // Loud once per outage, then quiet: Kafka away for minutes must not flood the log.
      if (this.failingStreak === 1) this.logger.warn({ failed }, this.messages.failing);
    } else if (due > 0) {
      if (this.failingStreak > 0) this.logger.info(this.messages.recovered);
      this.failingStreak = 0;
    }
    return published;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(async () => {
      try {
        await this.drain();
      } catch (err) {
        // The database itself is away: readiness says so; try again next tick.
        this.logger.debug({ err }, this.messages.sweepFailed);
      }
      this.schedule();
    }, this.settings.sweepIntervalMs);
    this.timer.unref?.();
  }
}

/** The attempt a marker's failure was, its error as stored, and whether to report it as stuck now. */
export interface BackOff {
  attempts: number;
  error: string;
  stuck: boolean;
}

/**
 * Pushes a failing marker's next attempt back, doubling with each attempt up to `maxBackoffMs`,
 * so one marker that cannot be published (a missing topic, an oversized message) waits on its
 * own while every other marker keeps flowing. `stuck` is true at exactly one attempt, so the
 * relay reports it once.
 */
export async function backOffMarker(
  markers: Pick<Collection<SweepMarker>, 'updateOne'>,
  marker: SweepMarker,
  err: unknown,
  settings: SweepSettings,
): Promise<BackOff> {
  const attempts = marker.attempts + 1;
  const delay = Math.min(settings.sweepIntervalMs * 2 ** Math.min(attempts, 10), settings.maxBackoffMs);
  const error = String((err as Error)?.message ?? err).slice(0, 500);
  // A marker that cannot be updated (the database away) is simply due again at the next sweep.
  await markers
    .updateOne(
      { _id: marker._id },
      { $set: { retryAt: new Date(Date.now() + delay), lastError: error }, $inc: { attempts: 1 } },
    )
    .catch(() => undefined);
  return { attempts, error, stuck: attempts === settings.stuckAfterAttempts };
}
