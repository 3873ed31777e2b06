import { randomBytes } from 'node:crypto';
import {
  LEAD_FIELDS,
  type LeadField,
  type LeadStats,
  type LeadStatus,
  POSTED_LEAD_FIELDS,
} from '@homereport/contracts';
import { type BatchOutbox, type OutboxEntry, conflict, isDuplicateKey } from '@homereport/kit';
import { type Collection, type Db, type Document, type Filter, MongoBulkWriteError } from 'mongodb';
import type { InboundLead } from '../domain/inbound-lead.js';
import { pick } from '../domain/pick.js';
import type { Admin, LeadDetail, LeadFilter, LeadPage, LeadRecord, LeadStore } from '../domain/ports.js';
import { keyTag } from '../domain/webhook-keys.js';
import { GroupCommit } from './group-commit.js';

/*
 * How leads are stored so that every request is answered through `_id` or a unique index and
 * costs the same at 1k and at 100k leads. The embedded MongoDB server (mongo-java-server 1.47)
 * uses an index only when a filter's fields are exactly the index's fields (decision 002). Each
 * filter below names the index it uses.
 *
 * leads            one document per lead. `_id` = "<key name, URI-encoded>:<lead_id>", so the
 *                  same lead_id posted again with the same key (retries, ten copies at once, two
 *                  replicas) is refused by the `_id` itself and stored once. Arrivals are written
 *                  in groups (group commit, insertBatch): two round trips per batch, not per lead;
 *                  `event` is the lead's lead-received event as JSON text (the kit's
 *                  OutboxRelay, one marker per batch: BatchOutbox).
 *                  Every list a page can show is dense: a lead holds its position in each, from
 *                  atomic counters, under a unique index, and a page is the positions below the
 *                  cursor, fetched with `$in` on the computed values.
 *                  `seq`  its position in the list of all leads: 1, 2, 3... (unique index).
 *                  `kp`   "<key tag>:<n>", its position in its key's list (unique index).
 *                  `sp`   "<status>:<n>", its position in the list of its status, taken when it
 *                         entered that status (unique index). A status change gives the lead a new
 *                         position in the new status's list, in the same write as the status, and
 *                         leaves a gap in the old list that readers step over. As `sp` is never
 *                         reused, the change is a compare-and-set on it: `{ sp: <as read> }`
 *                         matches nothing once another change moved the lead.
 *                  `ksp`  "<key tag>:<status>:<n>", the same within its key (unique index).
 * lead_counters    'leads': the list tops (`seq`, `keys.<tag>`, `sl.<status>`, `ksl.<tag>.<status>`)
 *                  and the arrival counters (`total`, `new`), moved by one atomic $inc per batch
 *                  of arrivals or per status change.
 *                  'moves': the per-status deltas of status changes (`s.<status>`) and the ids of
 *                  the last changes applied (`applied`), so a change is counted exactly once.
 *                  Stats = arrivals + moves, two documents read by `_id`.
 * lead_status_ops  one marker per status change in progress, written before the change and deleted
 *                  after its counters are applied. After a crash, the repair sweep finds the few
 *                  markers left and applies (idempotently) what the lead records.
 */

/**
 * Group commit of arrivals: at most this many leads per insertMany, and this many batches in flight
 * from one process (the next batch gathers while one is written).
 */
const INTAKE = { maxBatch: 256, parallel: 2 };

/** Status changes remembered per lead (the newest); each records who and when. */
const HISTORY_MAX = 500;
/**
 * Status change ids remembered by the moves counter: far more than can be pending at once (a
 * pending change is finished within seconds by its request or the repair sweep), few enough that
 * the counter document stays small (it is rewritten by every change).
 */
const APPLIED_MAX = 200;
/** A marker this old belongs to a request that died; the sweep finishes its work. */
const REPAIR_AFTER_MS = 10_000;
/** Most list queries one page may cost when positions have gaps (bounded; the page may come back short). */
const MAX_ROUNDS = 20;
/** Most positions one list query asks for (`$in`), however sparse the list is where it reads. */
const MAX_POSITIONS_PER_QUERY = 1000;

interface HistoryEntry {
  op: string;
  from: LeadStatus;
  to: LeadStatus;
  by: Admin;
  at: Date;
}

/** The lead's fields as stored: every field of the contract's Lead but `id`, which is `seq`. */
type StoredField = Exclude<LeadField, 'id'>;
const STORED_FIELDS = LEAD_FIELDS.filter((f): f is StoredField => f !== 'id');

interface LeadDoc extends Pick<LeadRecord, StoredField> {
  _id: string;
  seq: number;
  kp: string;
  sp: string;
  ksp: string;
  status_history: HistoryEntry[];
  raw: string;
  /**
   * Its lead-received event as JSON text (one string costs the database far less than the nested
   * document), written with it, and the batch whose marker announces it (BatchOutbox).
   */
  event?: string;
  batch?: string;
  /** Leads stored before batch markers carried their event here, published by the kit's relay. */
  outbox?: OutboxEntry[];
}

interface Arrival {
  keyName: string;
  lead: InboundLead;
  receivedAt: Date;
  event: ((record: LeadRecord) => OutboxEntry) | null;
}

type Outcome = 'created' | 'duplicate';

type PerStatus = Partial<Record<LeadStatus, number>>;

interface CountersDoc {
  _id: 'leads' | 'moves';
  seq?: number;
  total?: number;
  new?: number;
  keys?: Record<string, number>;
  sl?: PerStatus;
  ksl?: Record<string, PerStatus>;
  s?: PerStatus;
  applied?: string[];
}

interface StatusOp {
  _id: string;
  leadId: string;
  from: LeadStatus;
  to: LeadStatus;
  at: Date;
}

/** What a list row needs: never the raw copy, the history or the event. */
const ROW_FIELDS: Record<'seq' | 'sp' | StoredField, 1> = Object.fromEntries(
  ['seq', 'sp', ...STORED_FIELDS].map((f) => [f, 1]),
) as Record<'seq' | 'sp' | StoredField, 1>;

type Row = Pick<LeadDoc, '_id' | 'seq' | 'sp' | StoredField> & Partial<Pick<LeadDoc, 'kp' | 'ksp'>>;

const toRecord = (d: Row): LeadRecord => ({
  id: String(d.seq),
  ...pick(d, STORED_FIELDS),
  status_changed_at: d.status_changed_at ?? null,
  status_changed_by: d.status_changed_by ?? null,
});

/** Positions in the lists of one status, and of one status within one key. */
const statusPosition = (status: LeadStatus, n: number) => `${status}:${n}`;
const keyStatusPosition = (tag: string, status: LeadStatus, n: number) => `${tag}:${status}:${n}`;
/** The number at the end of a `kp`, `sp` or `ksp` value. */
const positionIn = (value: string | undefined) => Number(value?.slice(value.lastIndexOf(':') + 1) ?? 0);

/** A duplicate on `_id` (the same lead again), as opposed to any other unique index. */
function isDuplicateId(err: unknown): boolean {
  if (!isDuplicateKey(err)) return false;
  // A driver error, or one item's WriteError of an insertMany (errmsg).
  const e = err as { keyPattern?: Record<string, unknown>; message?: string; errmsg?: string };
  if (e.keyPattern) return '_id' in e.keyPattern;
  return /index: _id_/.test(e.errmsg ?? e.message ?? '');
}

/**
 * The list a filter reads: the counter path of its top position, the lead field holding the
 * position (a unique index) and that field's value at position n.
 */
function listOf(
  tag: string | null,
  status: LeadStatus | null,
): { top: string; field: 'seq' | 'kp' | 'sp' | 'ksp'; value: (n: number) => string | number } {
  if (tag && status) {
    return {
      top: `ksl.${tag}.${status}`,
      field: 'ksp',
      value: (n: number) => keyStatusPosition(tag, status, n),
    } as const;
  }
  if (status) return { top: `sl.${status}`, field: 'sp', value: (n) => statusPosition(status, n) };
  if (tag) return { top: `keys.${tag}`, field: 'kp', value: (n) => `${tag}:${n}` };
  return { top: 'seq', field: 'seq', value: (n) => n };
}

/** The public id is the list position; anything else is not an id of ours. */
function parseId(id: string): number | null {
  if (!/^[1-9]\d{0,14}$/.test(id)) return null;
  return Number(id);
}

/**
 * A batch's lead documents, each at the positions that follow the tops `before` the batch's $inc,
 * with its lead-received event (as JSON text, naming the batch whose marker announces it).
 */
function arrivalDocs(
  items: Arrival[],
  ids: string[],
  before: CountersDoc,
  batch: string,
): { docs: LeadDoc[]; entries: (OutboxEntry | null)[] } {
  const keyTops = new Map<string, number>();
  const keyNewTops = new Map<string, number>();
  const entries: (OutboxEntry | null)[] = [];
  const docs = items.map((item, i): LeadDoc => {
    const tag = keyTag(item.keyName);
    const seq = (before.seq ?? 0) + i + 1;
    const keyPosition = (keyTops.get(tag) ?? before.keys?.[tag] ?? 0) + 1;
    const keyNewPosition = (keyNewTops.get(tag) ?? before.ksl?.[tag]?.new ?? 0) + 1;
    keyTops.set(tag, keyPosition);
    keyNewTops.set(tag, keyNewPosition);
    const record: LeadRecord = {
      id: String(seq),
      key_name: item.keyName,
      ...pick(item.lead, POSTED_LEAD_FIELDS),
      lead_status: 'new',
      created_at: item.receivedAt,
      status_changed_at: null,
      status_changed_by: null,
    };
    const { id: _ignored, ...fields } = record;
    const entry = item.event ? item.event(record) : null;
    entries.push(entry);
    return {
      _id: ids[i] as string,
      seq,
      kp: `${tag}:${keyPosition}`,
      sp: statusPosition('new', (before.sl?.new ?? 0) + i + 1),
      ksp: keyStatusPosition(tag, 'new', keyNewPosition),
      ...fields,
      status_history: [],
      raw: item.lead.raw,
      ...(entry ? { event: JSON.stringify(entry), batch } : {}),
    };
  });
  return { docs, entries };
}

export class LeadsRepository implements LeadStore {
  private readonly leads: Collection<LeadDoc>;
  private readonly counters: Collection<CountersDoc>;
  private readonly statusOps: Collection<StatusOp>;
  private readonly intake: GroupCommit<Arrival, Outcome>;

  /** `events` null: leads inserted without an event (benchmark seeding only). */
  constructor(
    db: Db,
    private readonly events: BatchOutbox | null,
    intake: { maxBatch: number; parallel: number } = INTAKE,
  ) {
    this.intake = new GroupCommit((items) => this.insertBatch(items), intake);
    this.leads = db.collection<LeadDoc>('leads');
    this.counters = db.collection<CountersDoc>('lead_counters');
    this.statusOps = db.collection<StatusOp>('lead_status_ops');
  }

  /**
   * The counter documents, before the first lead, so the hot path never upserts. The indexes are
   * the migrations' (data/indexes.ts), checked at start.
   */
  async prepare(): Promise<void> {
    await this.createCounter('leads', { seq: 0, total: 0, new: 0, keys: {}, sl: {}, ksl: {} });
    await this.createCounter('moves', { s: {}, applied: [] });
  }

  private async createCounter(_id: CountersDoc['_id'], fields: Omit<CountersDoc, '_id'>): Promise<void> {
    try {
      await this.counters.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true });
    } catch (err) {
      // Another replica created it at the same moment.
      if (!isDuplicateKey(err)) throw err;
    }
  }

  // ---- arrival ------------------------------------------------------------------------------

  /** Queued into the next group commit (see GroupCommit): durable when this resolves. */
  insert(
    keyName: string,
    lead: InboundLead,
    receivedAt: Date,
    event: ((record: LeadRecord) => OutboxEntry) | null,
  ): Promise<'created' | 'duplicate'> {
    return this.intake.submit({ keyName, lead, receivedAt, event });
  }

  /**
   * Stores a batch of arrivals in two round trips, whatever its size:
   *  1. positions and arrival counters: one atomic $inc of the counters document by the batch's
   *     counts ('before' image plus offsets: this server's 'after' image can include a neighbour's
   *     increment, measured; 'before' never did); at the same time, the event marker (one
   *     document for the batch, see BatchOutbox);
   *  2. the leads, each with its positions and its lead-received event, in one unordered
   *     insertMany: the `_id` refuses a lead_id already stored for the key (or twice in this
   *     batch), item by item;
   *  3. only if some were not stored: their arrivals are taken back (one $inc); their positions
   *     stay unused (lists step over gaps).
   * The events go out after the answer (BatchOutbox.publishBatch).
   */
  private async insertBatch(items: Arrival[]): Promise<(Outcome | Error)[]> {
    const batch = randomBytes(9).toString('base64url');
    const ids = items.map((item) => `${encodeURIComponent(item.keyName)}:${item.lead.lead_id}`);
    const announced = ids.filter((_id, i) => items[i]?.event);
    // 1. The marker names the leads by `_id` (known before their positions), so both go at once.
    const [before] = await Promise.all([
      this.reservePositions(items),
      this.events && announced.length > 0 ? this.events.markBatch(batch, announced) : undefined,
    ]);
    const { docs, entries } = arrivalDocs(items, ids, before, batch);

    // 2. The leads, item by item as far as the server is concerned.
    const outcomes: (Outcome | Error)[] = docs.map(() => 'created');
    let unknown = new Set<number>();
    try {
      await this.leads.insertMany(docs, { ordered: false });
    } catch (err) {
      unknown = await this.settleFailedInserts(docs, err, outcomes);
    }

    // 3. Arrivals that were surely not stored are taken back.
    await this.takeBack(
      docs.flatMap((_d, i) => (outcomes[i] === 'created' || unknown.has(i) ? [] : [i])),
      outcomes,
    );

    // With items in doubt the marker stays: the sweep publishes whatever was stored.
    if (this.events && announced.length > 0 && unknown.size === 0) {
      const published = entries.flatMap((entry, i) => (entry && outcomes[i] === 'created' ? [entry] : []));
      this.events.publishBatch(batch, announced, published);
    }
    return outcomes;
  }

  /** Moves the list tops and arrival counters by the batch's counts; answers the tops before. */
  private async reservePositions(items: Arrival[]): Promise<CountersDoc> {
    const n = items.length;
    const inc: Record<string, number> = { seq: n, total: n, new: n, 'sl.new': n };
    const projection: Record<string, 1> = { seq: 1, 'sl.new': 1 };
    for (const item of items) {
      const tag = keyTag(item.keyName);
      inc[`keys.${tag}`] = (inc[`keys.${tag}`] ?? 0) + 1;
      inc[`ksl.${tag}.new`] = (inc[`ksl.${tag}.new`] ?? 0) + 1;
      projection[`keys.${tag}`] = 1;
      projection[`ksl.${tag}.new`] = 1;
    }
    const before = await this.counters.findOneAndUpdate(
      { _id: 'leads' },
      { $inc: inc },
      { returnDocument: 'before', projection },
    );
    if (!before) throw new Error('lead counters missing: prepare() was not run');
    return before;
  }

  /** A failure here fails just these requests; a retry of theirs is then a duplicate or a new write. */
  private async takeBack(notStored: number[], outcomes: (Outcome | Error)[]): Promise<void> {
    if (notStored.length === 0) return;
    try {
      await this.counters.updateOne({ _id: 'leads' }, { $inc: { total: -notStored.length, new: -notStored.length } });
    } catch (err) {
      for (const i of notStored) outcomes[i] = err as Error;
    }
  }

  /**
   * Which items of a failed insertMany were stored. Items the server names in its write errors
   * were not inserted by this call; a duplicate `_id` may still be our own write (a retried
   * insert), so those are looked up and compared by `seq`. A failed answer without per-item errors
   * (the connection dropped) proves nothing: every item is looked up. A lookup that fails too
   * leaves the items failed without taking their counts back (they may be stored).
   */
  private async settleFailedInserts(
    docs: LeadDoc[],
    err: unknown,
    outcomes: (Outcome | Error)[],
  ): Promise<Set<number>> {
    const perItem = err instanceof MongoBulkWriteError ? [err.writeErrors].flat() : null;
    const suspects = new Map<number, unknown>();
    if (perItem && perItem.length > 0) for (const w of perItem) suspects.set(w.index, w);
    else docs.forEach((_d, i) => suspects.set(i, err));
    // The cause kept: a MongoDB that timed out or went away makes this a 503 with Retry-After
    // (kit dependency-errors), not a 500 (5 inbound leads answered 500 with MongoDB slowed, bench:faults).
    const failure = (cause: unknown) =>
      new Error(
        `lead not stored: ${String((cause as Error)?.message ?? (cause as { errmsg?: string })?.errmsg ?? cause)}`,
        { cause },
      );
    let stored: Map<string, number | undefined>;
    try {
      const found = await this.leads
        .find({ _id: { $in: [...suspects.keys()].map((i) => (docs[i] as LeadDoc)._id) } }, { projection: { seq: 1 } })
        .toArray();
      stored = new Map(found.map((d) => [d._id, d.seq]));
    } catch {
      // In doubt: fail these requests and leave their counts (they may be stored; see the README).
      for (const [i, cause] of suspects) outcomes[i] = failure(cause);
      return new Set(suspects.keys());
    }
    for (const [i, cause] of suspects) {
      const doc = docs[i] as LeadDoc;
      const seq = stored.get(doc._id);
      if (seq === doc.seq) outcomes[i] = 'created';
      else if (seq !== undefined && isDuplicateId(cause)) outcomes[i] = 'duplicate';
      else outcomes[i] = failure(cause);
    }
    return new Set();
  }

  // ---- reading ------------------------------------------------------------------------------

  async list(filter: LeadFilter, limit: number, before: number | null): Promise<LeadPage> {
    const list = listOf(filter.key_name === undefined ? null : keyTag(filter.key_name), filter.status ?? null);
    const counters = await this.counters.findOne({ _id: 'leads' }, { projection: { [list.top]: 1 } });
    // A lead found at a position is in that list by construction; checking again costs nothing.
    const accept = (d: Row) =>
      (filter.key_name === undefined || d.key_name === filter.key_name) &&
      (filter.status === undefined || d.lead_status === filter.status);
    return this.listDense(
      Number(at(counters ?? {}, list.top) ?? 0),
      before,
      limit,
      (positions) => this.rows({ [list.field]: { $in: positions.map(list.value) } }, { [list.field]: 1 }),
      (d) => (list.field === 'seq' ? d.seq : positionIn(d[list.field])),
      accept,
    );
  }

  private rows(filter: Filter<LeadDoc>, extra: Record<string, 1> = {}): Promise<Row[]> {
    return this.leads.find(filter, { projection: { ...ROW_FIELDS, ...extra } }).toArray() as Promise<Row[]>;
  }

  /**
   * One list's page: the `limit` highest positions below `before`, fetched by `$in`. Gaps (a
   * repeat's unused position, a lead that left the status, one still being written) cost more
   * positions per round: each round asks for what is missing times the gaps seen so far.
   */
  private async listDense(
    top: number,
    before: number | null,
    limit: number,
    fetch: (positions: number[]) => Promise<Row[]>,
    positionOf: (d: Row) => number,
    accept: (d: Row) => boolean,
  ): Promise<LeadPage> {
    let next = Math.min(before === null ? top : before - 1, top);
    const out: Row[] = [];
    let asked = 0;
    let found = 0;
    for (let round = 0; round < MAX_ROUNDS && next >= 1; round++) {
      const missing = limit - out.length;
      const spread = asked === 0 ? 1 : asked / Math.max(found, 1);
      const count = Math.min(next, MAX_POSITIONS_PER_QUERY, Math.ceil(missing * spread) + 2);
      const positions = Array.from({ length: count }, (_, i) => next - i);
      const docs = (await fetch(positions)).filter(accept).sort((a, b) => positionOf(b) - positionOf(a));
      asked += count;
      found += docs.length;
      for (const d of docs) {
        out.push(d);
        if (out.length === limit) {
          const last = positionOf(d);
          return { leads: out.map(toRecord), nextBefore: last > 1 ? last : null };
        }
      }
      next -= count;
    }
    return { leads: out.map(toRecord), nextBefore: next >= 1 ? next + 1 : null };
  }

  async findById(id: string): Promise<LeadDetail | null> {
    const seq = parseId(id);
    if (seq === null) return null;
    const doc = await this.leads.findOne({ seq }, { projection: { ...ROW_FIELDS, status_history: 1 } });
    if (!doc) return null;
    return {
      ...toRecord(doc),
      status_history: (doc.status_history ?? []).map(({ from, to, by, at }) => ({ from, to, by, at })),
    };
  }

  async stats(): Promise<LeadStats> {
    const docs = await this.counters
      .find({ _id: { $in: ['leads', 'moves'] } }, { projection: { total: 1, new: 1, s: 1 } })
      .toArray();
    const arrivals = docs.find((d) => d._id === 'leads');
    const moves = docs.find((d) => d._id === 'moves')?.s ?? {};
    const count = (n: number | undefined) => Math.max(0, n ?? 0);
    return {
      total: count(arrivals?.total),
      new: count((arrivals?.new ?? 0) + (moves.new ?? 0)),
      qualified: count(moves.qualified),
      converted: count(moves.converted),
    };
  }

  // ---- status changes -----------------------------------------------------------------------

  async changeStatus(id: string, to: LeadStatus, by: Admin, at: Date): Promise<LeadRecord | null> {
    const seq = parseId(id);
    if (seq === null) return null;
    for (let attempt = 0; attempt < 10; attempt++) {
      const lead = await this.leads.findOne({ seq }, { projection: ROW_FIELDS });
      if (!lead) return null;
      if (lead.lead_status === to) return toRecord(lead);
      const tag = keyTag(lead.key_name);
      const op: StatusOp = {
        // 72 random bits: unique enough for ids that live seconds, short in the moves document.
        _id: randomBytes(9).toString('base64url'),
        leadId: lead._id,
        from: lead.lead_status,
        to,
        at,
      };
      // The marker before the change: if this process dies after it, the repair sweep finishes
      // it. At the same time, the lead's positions in the lists of its new status.
      const [positions] = await Promise.all([this.takeStatusPositions(tag, to), this.statusOps.insertOne(op)]);
      const changed = await this.moveLead(lead.sp, op, positions, by);
      if (!changed) {
        // Another admin's change won (the positions taken stay gaps); read again and apply ours
        // on top of theirs.
        await this.statusOps.deleteOne({ _id: op._id });
        continue;
      }
      await this.applyStatusOp(op);
      return toRecord({ ...lead, lead_status: to, status_changed_at: at, status_changed_by: by.email });
    }
    throw conflict('The lead kept changing while saving. Please try again.');
  }

  /** The next positions in the lists of status `to`, overall and within the key: the tops before. */
  private async takeStatusPositions(tag: string, to: LeadStatus): Promise<{ sp: string; ksp: string }> {
    const tops = await this.counters.findOneAndUpdate(
      { _id: 'leads' },
      { $inc: { [`sl.${to}`]: 1, [`ksl.${tag}.${to}`]: 1 } },
      { returnDocument: 'before', projection: { [`sl.${to}`]: 1, [`ksl.${tag}.${to}`]: 1 } },
    );
    return {
      sp: statusPosition(to, (tops?.sl?.[to] ?? 0) + 1),
      ksp: keyStatusPosition(tag, to, (tops?.ksl?.[tag]?.[to] ?? 0) + 1),
    };
  }

  /**
   * The change itself, only if nobody moved the lead since it was read at `sp` (index sp_unique):
   * any change gives a lead a position never used before. The history entry carries the op id,
   * which is how the repair sweep knows the change happened. False when another change won.
   */
  private async moveLead(sp: string, op: StatusOp, positions: { sp: string; ksp: string }, by: Admin) {
    const changed = await this.leads.findOneAndUpdate(
      { sp },
      {
        $set: { lead_status: op.to, ...positions, status_changed_at: op.at, status_changed_by: by.email },
        $push: {
          status_history: {
            $each: [{ op: op._id, from: op.from, to: op.to, by, at: op.at }],
            $slice: -HISTORY_MAX,
          },
        },
      },
      { returnDocument: 'before', projection: { _id: 1 } },
    );
    return changed !== null;
  }

  /** What follows a recorded status change: the counters (exactly once, by op id), then the marker goes. */
  private async applyStatusOp(op: StatusOp): Promise<void> {
    // lead_counters holds two documents, so this filter beyond _id reads two documents at most.
    await this.counters.findOneAndUpdate(
      { _id: 'moves', applied: { $ne: op._id } },
      {
        $inc: { [`s.${op.from}`]: -1, [`s.${op.to}`]: 1 },
        $push: { applied: { $each: [op._id], $slice: -APPLIED_MAX } },
      },
      { projection: { _id: 1 } },
    );
    await this.statusOps.deleteOne({ _id: op._id });
  }

  /**
   * Finishes status changes whose request died half-way (markers older than REPAIR_AFTER_MS).
   * Reads only the marker collection, which is empty when nothing went wrong.
   */
  async repairStatusOps(now = new Date()): Promise<number> {
    const stale = await this.statusOps
      .find({ at: { $lt: new Date(now.getTime() - REPAIR_AFTER_MS) } })
      .limit(100)
      .toArray();
    let repaired = 0;
    for (const op of stale) {
      const lead = await this.leads.findOne({ _id: op.leadId }, { projection: { status_history: 1 } });
      if (lead?.status_history?.some((h) => h.op === op._id)) {
        await this.applyStatusOp(op);
        repaired += 1;
      } else {
        await this.statusOps.deleteOne({ _id: op._id });
      }
    }
    return repaired;
  }
}

function at(doc: Document, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
