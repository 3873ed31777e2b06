import type { KafkaMessage } from 'kafkajs';
import { unavailableDependency } from '../dependency-errors.js';
import { namedError } from '../errors.js';
import type { Logger } from '../logger.js';
import { deadLetters as deadLetterCount, eventRetries } from '../metrics/registry.js';
import type { EventPublisher } from './publisher.js';

/** What became of one message; only `handled` and `dead-lettered` let its offset be committed. */
export type Outcome = 'handled' | 'dead-lettered' | 'skipped' | 'abandoned';

export const deadLetterTopic = (groupId: string) => `${groupId}.dead-letter`;

/**
 * Waits that keep the group membership alive and stop early when the consumer must let go (it
 * is stopping, or the partition moved to another consumer). One per fetched batch.
 */
export class Control {
  constructor(
    readonly heartbeat: () => Promise<void>,
    readonly active: () => boolean,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Sleeps `ms` in short steps with heartbeats; false when the consumer is stopping or lost the partition. */
  async pause(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (this.active()) {
      await this.heartbeat();
      const left = until - Date.now();
      if (left <= 0) return true;
      await this.sleep(Math.min(left, 500));
    }
    return false;
  }
}

/** The wait before attempt `attempt + 1`: doubling from `baseMs`, at most `maxMs`. */
export const backoffMs = (attempt: number, baseMs: number, maxMs = Number.POSITIVE_INFINITY) =>
  Math.min(baseMs * 2 ** (attempt - 1), maxMs);

/** Longest wait between two attempts while a dependency is away: back soon after it returns. */
const MAX_OUTAGE_WAIT_MS = 5000;

export interface RetryPolicy {
  maxAttempts: number;
  retryBaseMs: number;
}

/**
 * Runs `attempt` until it resolves (`handled`) or has failed `maxAttempts` times (`failed`, with
 * the last error), waiting with backoff in between; `abandoned` when the consumer lets go while
 * waiting.
 */
export async function withRetries(
  attempt: () => Promise<void>,
  policy: RetryPolicy,
  ctl: Pick<Control, 'pause'>,
  log: Logger,
  /** The event's topic, for the retries metric. */
  topic = 'unknown',
): Promise<
  { outcome: 'handled' } | { outcome: 'failed'; error: unknown; attempts: number } | { outcome: 'abandoned' }
> {
  let failures = 0;
  for (let n = 1; ; n++) {
    try {
      await attempt();
      return { outcome: 'handled' };
    } catch (error) {
      // A dependency away (MongoDB, Redis timing out or its breaker open) says nothing about the
      // event: it waits for the dependency, retried every few seconds, instead of going to the
      // dead-letter topic after a short outage.
      const outage = unavailableDependency(error) !== null;
      if (!outage) failures += 1;
      if (failures >= policy.maxAttempts) return { outcome: 'failed', error, attempts: n };
      eventRetries.inc({ topic });
      log.warn({ err: error, attempt: n }, `event handler failed; retrying: ${namedError(error)}`);
      const wait = outage ? backoffMs(n, policy.retryBaseMs, MAX_OUTAGE_WAIT_MS) : backoffMs(n, policy.retryBaseMs);
      if (!(await ctl.pause(wait))) return { outcome: 'abandoned' };
    }
  }
}

/** Longest wait between two dead-letter sends: the partition waits, so it must notice the topic is back. */
const MAX_DEAD_LETTER_WAIT_MS = 30_000;

/**
 * Sends messages that cannot be handled to `<group>.dead-letter`, with the original topic and the
 * error in headers, so an operator can look at them and replay them.
 */
export class DeadLetters {
  constructor(
    private readonly groupId: string,
    private readonly publisher: Pick<EventPublisher, 'sendRaw'>,
    private readonly retryBaseMs: number,
  ) {}

  /**
   * Retries until the message is there (`dead-lettered`) or the consumer lets go (`abandoned`):
   * the offset stays uncommitted meanwhile, so nothing is lost while the topic is unreachable.
   */
  async send(topic: string, message: KafkaMessage, error: string, log: Logger, ctl: Pick<Control, 'pause'>) {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.publisher.sendRaw(deadLetterTopic(this.groupId), [
          { key: message.key, value: message.value, headers: { 'original-topic': topic, error: error.slice(0, 1000) } },
        ]);
        deadLetterCount.inc({ topic });
        if (attempt > 1) log.info({ attempts: attempt }, 'event reached the dead-letter topic');
        return 'dead-lettered' as const;
      } catch (err) {
        if (attempt === 1) log.warn({ err }, 'dead-letter send failed; holding the event and retrying');
        if (attempt === 10)
          log.error(
            { err },
            `dead-letter topic ${deadLetterTopic(this.groupId)} unreachable; the partition waits until it is back: ${namedError(err)}`,
          );
        if (!(await ctl.pause(backoffMs(attempt, this.retryBaseMs, MAX_DEAD_LETTER_WAIT_MS))))
          return 'abandoned' as const;
      }
    }
  }
}

/** The text a dead letter carries for a handler's error. */
export const errorText = (err: unknown): string => String((err as Error)?.message ?? err);
