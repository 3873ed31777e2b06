import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import { isDuplicateKey } from '../duplicate-keys.js';
import type { Logger } from '../logger.js';
import type { IndexSpec } from '../migrations.js';
import type { Effects } from './handlers.js';

/**
 * The indexes of `processed_events` a consuming service lists among its own (created by its
 * migrations, checked at its start). The claim's conditional writes filter on exactly these
 * fields: mongo-java-server uses an index only for a filter with exactly its fields, and would
 * otherwise scan processed_events.
 */
export const CLAIM_INDEXES: IndexSpec[] = [
  { collection: 'processed_events', key: { _id: 1, owner: 1 }, unique: true, name: 'claim_owner' },
  { collection: 'processed_events', key: { _id: 1, claimedAt: 1 }, unique: true, name: 'claim_takeover' },
  { collection: 'processed_events', key: { _id: 1, owner: 1, status: 1 }, unique: true, name: 'claim_release' },
];

/**
 * The claims of a consumer group on event ids, in `processed` (unique by `_id`): the one place
 * that stops a redelivered event from being handled twice, and that keeps two consumers from
 * handling one event at once. A claim is `processing` while its holder renews it (a lease) and
 * `done` once handled; a claim not renewed for a lease is taken over (its holder died).
 */
export interface ProcessedEvent {
  _id: string;
  type: string;
  status: 'processing' | 'done';
  /** Renewed by the holder while it works; a claim not renewed for a lease is free to take. */
  claimedAt: Date;
  /** Which consumer instance holds the claim. */
  owner?: string;
  doneAt?: Date;
  /**
   * Claimed together with others: the ledger chunk of that call (see batches.ts) holds the
   * claim's renewals and its `done`, one write for all of them instead of one per event.
   */
  batch?: string;
  /** The effects its handler recorded as done (see Effects): kept when the claim is released. */
  effects?: string[];
}

/**
 * `<group>:<hour>` lists the claim ids first made in that hour one at a time (`ids`) and counts
 * the chunks of ids claimed together then (`chunks`); `<group>:<hour>#<n>` holds chunk n's ids;
 * `<group>:pruned-through` is the pruning cursor.
 */
export interface ProcessedLedger {
  _id: string;
  ids?: string[];
  chunks?: number;
  hour?: Date;
  /** A chunk's claims as one: `processing` while its holder renews `claimedAt`, then `done`. */
  status?: 'processing' | 'done';
  claimedAt?: Date;
  doneAt?: Date;
}

export type ClaimState = 'claimed' | 'done' | 'held';

/** A claim attempt: its state, and the effects an earlier holder recorded (when `claimed`). */
export interface ClaimResult {
  state: ClaimState;
  effects: string[];
}

const HOUR = 60 * 60 * 1000;

/** The ledger document of the hour `at` falls in. */
export const ledgerId = (groupId: string, at: Date) => `${groupId}:${at.toISOString().slice(0, 13)}`;
/** Chunk `n` (from 1) of an hour's ledger document. */
export const chunkId = (hourId: string, n: number) => `${hourId}#${n}`;

/** One consumer instance's claims: taking, renewing, finishing and releasing them. */
export class Claims {
  /** This instance, as named in the claims it holds. */
  readonly owner = randomUUID();
  /**
   * The effects of events claimed here (see Effects), by event id: each effect with whether it is
   * written on the claim yet. Known from the claim when taken (written), or from the handler when
   * the effect happened here (unwritten until ClaimEffects.record's write succeeds: MongoDB may
   * time out or be gone). Without the unwritten ones the retry of the event, or its next claim by
   * this process, would not know and would send the email again (one receipt twice with MongoDB
   * unreachable, bench:faults); they are written onto the claim when it is released. Forgotten
   * once the claim is done or released. A process that dies with some unwritten loses them: SMTP
   * has no way to ask whether a message went out, so that one window (from the server's
   * acceptance to the write) stays; see ClaimEffects.record.
   */
  private readonly effects = new Map<string, Map<string, boolean>>();

  /** Notes `effect` of these events, `written` once it is on their claims. */
  noteEffect(effect: string, eventIds: Iterable<string>, written: boolean): void {
    for (const id of eventIds) {
      const known = this.effects.get(id);
      if (known) known.set(effect, written);
      else this.effects.set(id, new Map([[effect, written]]));
    }
  }

  /** Whether `effect` of the event is known here, written or not. */
  effectKnown(effect: string, eventId: string): boolean {
    return this.effects.get(eventId)?.has(effect) ?? false;
  }

  /** Whether any effect of the event is known here. */
  hasEffects(eventId: string): boolean {
    return this.effects.has(eventId);
  }

  /** The effects of an event that happened here and are not written on its claim yet. */
  unwrittenOf(eventId: string): string[] {
    const unwritten: string[] = [];
    for (const [effect, written] of this.effects.get(eventId) ?? []) if (!written) unwritten.push(effect);
    return unwritten;
  }

  /** The claim is done or released with its effects written: nothing left to remember. */
  settled(eventIds: Iterable<string>): void {
    for (const id of eventIds) this.effects.delete(id);
  }

  constructor(
    readonly processed: Collection<ProcessedEvent>,
    readonly ledger: Collection<ProcessedLedger> | undefined,
    readonly groupId: string,
    /** How long a claim stays its holder's without being renewed. */
    readonly leaseMs: number,
  ) {}

  /** The claim's `_id` for an event id: one per group, so each group handles every event once. */
  idOf(eventId: string): string {
    return `${this.groupId}:${eventId}`;
  }

  /**
   * Takes the claim on an event: `claimed` (ours now), `done` (handled before) or `held`
   * (another consumer renews it; wait). A claim not renewed for a lease is taken over.
   */
  async claim(eventId: string, type: string): Promise<ClaimResult> {
    const id = this.idOf(eventId);
    for (;;) {
      const now = new Date();
      try {
        await this.processed.insertOne({ _id: id, type, status: 'processing', claimedAt: now, owner: this.owner });
        // Remembered under the hour it was first claimed, so pruning finds it by key.
        await this.ledger?.findOneAndUpdate(
          { _id: ledgerId(this.groupId, now) },
          { $push: { ids: id } },
          { upsert: true, projection: { _id: 1 } },
        );
        return { state: 'claimed', effects: this.unwrittenOf(eventId) };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const existing = await this.processed.findOne({ _id: id });
      // Released between our insert and this read: try again.
      if (existing) {
        const effects = [...new Set([...(existing.effects ?? []), ...this.unwrittenOf(eventId)])];
        return { state: await this.takeOver(existing, now), effects };
      }
    }
  }

  private async takeOver(existing: ProcessedEvent, now: Date): Promise<ClaimState> {
    if (existing.status === 'done') return 'done';
    // Claimed together with others: their chunk says whether they are done and when last renewed.
    // A chunk gone (pruned, or its claimer died before writing it) renews nothing.
    const chunk = existing.batch && this.ledger ? await this.ledger.findOne({ _id: existing.batch }) : null;
    if (chunk?.status === 'done') return 'done';
    const renewedAt = chunk?.claimedAt ?? existing.claimedAt;
    if (existing.owner !== this.owner && now.getTime() - renewedAt.getTime() < this.leaseMs) return 'held';
    // Filter of exactly { _id, claimedAt }: the claim_takeover index. Taken over, the claim
    // leaves its chunk: the chunk's `done` is no longer this event's.
    const taken = await this.processed.findOneAndUpdate(
      { _id: existing._id, claimedAt: existing.claimedAt },
      { $set: { claimedAt: now, owner: this.owner }, $unset: { batch: '' } },
      { projection: { _id: 1 } },
    );
    return taken ? 'claimed' : 'held';
  }

  /** Renews our claim's lease. */
  async renew(eventId: string): Promise<void> {
    await this.processed.findOneAndUpdate(
      { _id: this.idOf(eventId), owner: this.owner },
      { $set: { claimedAt: new Date() } },
      { projection: { _id: 1 } },
    );
  }

  /** Marks our claim done: a redelivery of the event is skipped from now on. */
  async finish(eventId: string): Promise<void> {
    await this.processed.findOneAndUpdate(
      { _id: this.idOf(eventId), owner: this.owner },
      { $set: { status: 'done', doneAt: new Date() } },
      { projection: { _id: 1 } },
    );
    this.settled([eventId]);
  }

  /**
   * Frees our unfinished claim, so an operator's replay or the next consumer handles the event
   * afresh. A claim with effects recorded stays, free to take at once (no owner, renewed at the
   * epoch), so whoever handles the event next skips those effects.
   */
  async release(eventId: string, hasEffects: boolean): Promise<void> {
    const filter = { _id: this.idOf(eventId), owner: this.owner, status: 'processing' as const };
    if (hasEffects) await this.processed.updateOne(filter, this.freeing(eventId));
    else await this.processed.deleteOne(filter);
    this.settled([eventId]);
  }

  /** FREE, with the event's effects not yet written on the claim, for whoever takes it next. */
  freeing(eventId: string) {
    const effects = this.unwrittenOf(eventId);
    return effects.length === 0 ? FREE : { ...FREE, $addToSet: { effects: { $each: effects } } };
  }

  /**
   * Calls `renew` every third of a lease until the returned function is called, so a claim (and,
   * through `renew`, the group membership) outlives a handler however long it takes. Failures
   * of a renewal are left to the next one.
   */
  keepAlive(renew: () => Promise<unknown>): () => void {
    const timer = setInterval(() => void renew().catch(() => undefined), this.leaseMs / 3);
    return () => clearInterval(timer);
  }
}

/** The update that frees a claim and keeps its effects: anyone takes it over at once. */
export const FREE = { $set: { claimedAt: new Date(0) }, $unset: { owner: '', batch: '' } } as const;

/**
 * The effects of claims we hold, recorded on the claims themselves (see Effects): what a handler
 * sees of Claims' effects, those it inherited from the claims' earlier holders among them.
 */
export class ClaimEffects implements Effects {
  constructor(
    private readonly claims: Claims,
    inherited: Record<string, string[]> = {},
  ) {
    // Those among them that happened here and are still unwritten stay so.
    for (const [eventId, effects] of Object.entries(inherited)) {
      for (const effect of effects)
        if (!claims.effectKnown(effect, eventId)) claims.noteEffect(effect, [eventId], true);
    }
  }

  done(effect: string, eventId: string): boolean {
    return this.claims.effectKnown(effect, eventId);
  }

  /**
   * Known here before it is written, and kept by the process (Claims, unwritten) until the write
   * succeeds: the effect happened whether or not MongoDB answers now, and a retry must skip it.
   * The caller records right after the effect, so the one window left is a crash between the two
   * (an SMTP server that accepted a message cannot be asked again).
   */
  async record(effect: string, eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    this.claims.noteEffect(effect, eventIds, false);
    const ids = eventIds.map((id) => this.claims.idOf(id));
    // By `_id` alone: recorded even on a claim taken over meanwhile, since the effect happened.
    if (ids.length === 1)
      await this.claims.processed.updateOne({ _id: ids[0] as string }, { $addToSet: { effects: effect } });
    else await this.claims.processed.updateMany({ _id: { $in: ids } }, { $addToSet: { effects: effect } });
    this.claims.noteEffect(effect, eventIds, true);
  }

  /** Whether any effect is known for the event (its claim must then be kept when released). */
  any(eventId: string): boolean {
    return this.claims.hasEffects(eventId);
  }
}

/**
 * Deletes the processed ids first claimed before `cutoff`, hour by hour, each hour's ids read
 * from its ledger document by `_id` and deleted by `_id`. A cursor document remembers the last
 * pruned hour, so a service that was down for days catches up. Returns how many were deleted.
 */
export async function pruneProcessed(
  processed: Collection<ProcessedEvent>,
  ledger: Collection<ProcessedLedger>,
  groupId: string,
  cutoff: number,
  maxHours = 24 * 14,
): Promise<number> {
  const cursorId = `${groupId}:pruned-through`;
  const end = Math.floor(cutoff / HOUR) * HOUR;
  const cursor = await ledger.findOne({ _id: cursorId });
  let hour = cursor?.hour ? cursor.hour.getTime() : end - 2 * 24 * HOUR;
  let removed = 0;
  for (let steps = 0; hour < end && steps < maxHours; steps++, hour += HOUR) {
    const bucketId = ledgerId(groupId, new Date(hour));
    const bucket = await ledger.findOne({ _id: bucketId });
    removed += await deleteClaims(processed, bucket?.ids ?? []);
    for (let n = 1; n <= (bucket?.chunks ?? 0); n++) {
      const chunk = await ledger.findOne({ _id: chunkId(bucketId, n) });
      if (!chunk) continue; // its claimer died before writing it
      removed += await deleteClaims(processed, chunk.ids ?? []);
      await ledger.deleteOne({ _id: chunk._id });
    }
    if (bucket) await ledger.deleteOne({ _id: bucketId });
    await ledger.findOneAndUpdate({ _id: cursorId }, { $set: { hour: new Date(hour + HOUR) } }, { upsert: true });
  }
  return removed;
}

async function deleteClaims(processed: Collection<ProcessedEvent>, ids: string[]): Promise<number> {
  let removed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    removed += (await processed.deleteMany({ _id: { $in: ids.slice(i, i + 500) } })).deletedCount;
  }
  return removed;
}

export interface PruningOptions {
  /** How long processed ids are remembered: longer than Kafka keeps a message (7 days). */
  retentionMs?: number;
  /** How often old processed ids are pruned. */
  pruneIntervalMs?: number;
}

/** Prunes the claims older than the retention now and then, until the returned function is called. */
export function schedulePruning(
  claims: Claims,
  ledger: Collection<ProcessedLedger>,
  options: PruningOptions,
  logger: Logger,
) {
  const retentionMs = options.retentionMs ?? 8 * 24 * HOUR;
  const intervalMs = options.pruneIntervalMs ?? HOUR;
  let timer: NodeJS.Timeout;
  const prune = async () => {
    try {
      const removed = await pruneProcessed(claims.processed, ledger, claims.groupId, Date.now() - retentionMs);
      if (removed > 0) logger.debug({ removed }, 'old processed event ids pruned');
    } catch (err) {
      logger.debug({ err }, 'pruning processed event ids failed; will retry');
    }
    timer = setTimeout(prune, intervalMs);
    timer.unref();
  };
  timer = setTimeout(prune, Math.min(intervalMs, 60_000));
  timer.unref();
  return () => clearTimeout(timer);
}
