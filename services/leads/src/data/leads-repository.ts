import { randomBytes } from 'node:crypto';
import { LEAD_STATUSES, type LeadStats, type LeadStatus } from '@homereport/contracts';
import { type OutboxEntry, conflict } from '@homereport/kit';
import { type Collection, type Db, type Document, type Filter, MongoBulkWriteError } from 'mongodb';
import type { InboundLead } from '../domain/inbound-lead.js';
import type { Admin, LeadDetail, LeadFilter, LeadPage, LeadRecord, LeadStore } from '../domain/ports.js';
import { keyTag } from '../domain/webhook-keys.js';
import { GroupCommit } from './group-commit.js';
import type { LeadEventRelay } from './lead-event-relay.js';

/*
 * How leads are stored so that every request is answered through `_id` or a unique index and
 * costs the same at 1k and at 100k leads. The embedded MongoDB server (mongo-java-server 1.47)
 * uses an index only when a filter's fields are exactly the index's fields: `{ _id, rev }` is a
 * scan of the collection unless an index on exactly `{ _id, rev }` exists (measured: 1.5 s at
 * 100k leads without it). Each filter below names the index it uses.
 *
 * leads            one document per lead. `_id` = "<key name, URI-encoded>:<lead_id>", so the
 *                  same lead_id posted again with the same key (retries, ten copies at once, two
 *                  replicas) is refused by the `_id` itself and stored once. Arrivals are written
 *                  in groups (group commit, insertBatch): a handful of round trips per batch, not
 *                  per lead; `event` is the lead's lead-received event (LeadEventRelay).
 *                  `seq`  its position in the list of all leads: 1, 2, 3... from an atomic counter
 *                         (unique index). "Newest first" pages are the positions below the cursor,
 *                         fetched with `$in` on the computed numbers.
 *                  `kp`   "<key tag>:<n>", its position in its key's own list (unique index), so
 *                         the list filtered by key is dense in the same way.
 *                  `rev`  how many times its status changed; a change applies only to the rev it
 *                         read (`{ _id, rev }`, unique compound index), so concurrent changes
 *                         are applied one after the other, never lost.
 * lead_counters    'leads': the next positions (`seq`, `keys.<tag>`) and the arrival counters
 *                  (`total`, `new`), moved by one atomic $inc per batch of arrivals.
 *                  'moves': the per-status deltas of status changes (`s.<status>`) and the ids of
 *                  the last changes applied (`applied`), so a change is counted exactly once.
 *                  Stats = arrivals + moves, two documents read by `_id`.
 * lead_buckets     the status index: one document per 256 positions (`_id` = seq >> 8) holding,
 *                  per status, the positions of the leads in that status (`s.<status>`), and the
 *                  same per key (`ks.<tag>.<status>`). Positions of a status are sparse, so the list
 *                  filtered by status walks these documents newest first, a few hundred ids per
 *                  query: about 400 documents at 100k leads, read in batches that grow 2, 8, 32...
 *                  The index may briefly hold a lead under an old status; readers check every lead
 *                  they fetch against the filter, so it can only cost a little time, never show a
 *                  wrong row. A lead is indexed under its new status before it can be read in it
 *                  (arrival) or right after its change (status change, repaired after a crash).
 * lead_status_ops  one marker per status change in progress, written before the change and deleted
 *                  after its counters and index entry are applied. After a crash, the repair sweep
 *                  finds the few markers left and applies (idempotently) what the lead records.
 */

/**
 * Group commit of arrivals: at most this many leads per insertMany, and this many batches in flight
 * from one process (the next batch gathers while one is written).
 */
const INTAKE = { maxBatch: 256, parallel: 2 };

const BUCKET_SHIFT = 8;
const bucketOf = (seq: number) => Math.floor(seq / 2 ** BUCKET_SHIFT);
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

interface HistoryEntry {
  op: string;
  from: LeadStatus;
  to: LeadStatus;
  by: Admin;
  at: Date;
}

interface LeadDoc {
  _id: string;
  seq: number;
  kp: string;
  rev: number;
  lead_id: string;
  key_name: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  campaign_id: string | null;
  ad_group_id: string | null;
  form_id: string | null;
  gcl_id: string | null;
  is_test: boolean;
  lead_status: LeadStatus;
  created_at: Date;
  status_changed_at: Date | null;
  status_changed_by: string | null;
  status_history: HistoryEntry[];
  raw: string;
  /** Its lead-received event, written with it, and the batch whose marker announces it (LeadEventRelay). */
  event?: OutboxEntry;
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

interface CountersDoc {
  _id: 'leads' | 'moves';
  seq?: number;
  total?: number;
  new?: number;
  keys?: Record<string, number>;
  s?: Partial<Record<LeadStatus, number>>;
  applied?: string[];
}

interface BucketDoc {
  _id: number;
  s?: Partial<Record<LeadStatus, number[]>>;
  ks?: Record<string, Partial<Record<LeadStatus, number[]>>>;
}

interface StatusOp {
  _id: string;
  leadId: string;
  seq: number;
  tag: string;
  from: LeadStatus;
  to: LeadStatus;
  rev: number;
  at: Date;
}

/** What a list row needs: never the raw copy, the history or the outbox. */
const ROW_FIELDS = {
  seq: 1,
  rev: 1,
  lead_id: 1,
  key_name: 1,
  first_name: 1,
  last_name: 1,
  email: 1,
  phone: 1,
  campaign_id: 1,
  ad_group_id: 1,
  form_id: 1,
  gcl_id: 1,
  is_test: 1,
  lead_status: 1,
  created_at: 1,
  status_changed_at: 1,
  status_changed_by: 1,
} as const;

type Row = Pick<LeadDoc, '_id' | keyof typeof ROW_FIELDS>;

const toRecord = (d: Row): LeadRecord => ({
  id: String(d.seq),
  lead_id: d.lead_id,
  key_name: d.key_name,
  first_name: d.first_name,
  last_name: d.last_name,
  email: d.email,
  phone: d.phone,
  campaign_id: d.campaign_id,
  ad_group_id: d.ad_group_id,
  form_id: d.form_id,
  gcl_id: d.gcl_id,
  is_test: d.is_test,
  lead_status: d.lead_status,
  created_at: d.created_at,
  status_changed_at: d.status_changed_at ?? null,
  status_changed_by: d.status_changed_by ?? null,
});

const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

/** A duplicate on `_id` (the same lead again), as opposed to any other unique index. */
function isDuplicateId(err: unknown): boolean {
  if (!isDuplicateKey(err)) return false;
  // A driver error, or one item's WriteError of an insertMany (errmsg).
  const e = err as { keyPattern?: Record<string, unknown>; message?: string; errmsg?: string };
  if (e.keyPattern) return '_id' in e.keyPattern;
  return /index: _id_/.test(e.errmsg ?? e.message ?? '');
}

/** The public id is the list position; anything else is not an id of ours. */
function parseId(id: string): number | null {
  if (!/^[1-9]\d{0,14}$/.test(id)) return null;
  return Number(id);
}

export class LeadsRepository implements LeadStore {
  private readonly leads: Collection<LeadDoc>;
  private readonly counters: Collection<CountersDoc>;
  private readonly buckets: Collection<BucketDoc>;
  private readonly statusOps: Collection<StatusOp>;
  private readonly intake: GroupCommit<Arrival, Outcome>;

  /** `events` null: leads inserted without an event (benchmark seeding only). */
  constructor(
    db: Db,
    private readonly events: LeadEventRelay | null,
    intake: { maxBatch: number; parallel: number } = INTAKE,
  ) {
    this.intake = new GroupCommit((items) => this.insertBatch(items), intake);
    this.leads = db.collection<LeadDoc>('leads');
    this.counters = db.collection<CountersDoc>('lead_counters');
    this.buckets = db.collection<BucketDoc>('lead_buckets');
    this.statusOps = db.collection<StatusOp>('lead_status_ops');
  }

  async ensureIndexes(): Promise<void> {
    // Pages of the full list and PUT/GET /api/admin/leads/:id find leads by position: unique.
    await this.leads.createIndex({ seq: 1 }, { unique: true, name: 'seq_unique' });
    // Pages of the list filtered by key find leads by their position in that key's list: unique.
    await this.leads.createIndex({ kp: 1 }, { unique: true, name: 'kp_unique' });
    // A status change applies only to the revision it read: findOneAndUpdate({ _id, rev }). Unique
    // by construction (it contains _id); it exists so that filter is a lookup, not a scan.
    await this.leads.createIndex({ _id: 1, rev: 1 }, { unique: true, name: 'id_rev_unique' });
    // The counter documents exist before the first lead, so the hot path never upserts them.
    for (const doc of [
      { _id: 'leads' as const, seq: 0, total: 0, new: 0, keys: {} },
      { _id: 'moves' as const, s: {}, applied: [] },
    ]) {
      const { _id, ...fields } = doc;
      try {
        await this.counters.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true });
      } catch (err) {
        // Another replica created it at the same moment.
        if (!isDuplicateKey(err)) throw err;
      }
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
   * Stores a batch of arrivals in a fixed number of round trips, whatever its size:
   *  1. positions and arrival counters: one atomic $inc of the counters document by the batch's
   *     counts ('before' image plus offsets: this server's 'after' image can include a neighbour's
   *     increment, measured; 'before' never did);
   *  2. the status index: one $addToSet per bucket touched (one or two), before the leads exist,
   *     so a reader meanwhile finds no lead and skips the entry;
   *  3. the event marker (one document for the batch, see LeadEventRelay), written together with 1;
   *  4. the leads, each with its lead-received event, in one unordered insertMany: the `_id`
   *     refuses a lead_id already stored for the key (or twice in this batch), item by item;
   *  5. only if some were not stored: their arrivals are taken back (one $inc, one $pullAll per
   *     bucket); their positions stay unused (lists skip gaps).
   * The events go out after the answer (LeadEventRelay.publishNow).
   */
  private async insertBatch(items: Arrival[]): Promise<(Outcome | Error)[]> {
    const tags = items.map((item) => keyTag(item.keyName));
    const perTag = new Map<string, number>();
    for (const tag of tags) perTag.set(tag, (perTag.get(tag) ?? 0) + 1);
    const n = items.length;
    const batch = randomBytes(9).toString('base64url');
    const ids = items.map((item) => `${encodeURIComponent(item.keyName)}:${item.lead.lead_id}`);
    const announced = ids.filter((_id, i) => items[i]?.event);
    // 1 and 3 at once: the marker names the leads by `_id` (known before their positions).
    const [before] = await Promise.all([
      this.counters.findOneAndUpdate(
        { _id: 'leads' },
        { $inc: { seq: n, total: n, new: n, ...Object.fromEntries([...perTag].map(([t, k]) => [`keys.${t}`, k])) } },
        {
          returnDocument: 'before',
          projection: { seq: 1, ...Object.fromEntries([...perTag.keys()].map((t) => [`keys.${t}`, 1])) },
        },
      ),
      this.events && announced.length > 0 ? this.events.mark(batch, announced) : undefined,
    ]);
    if (!before) throw new Error('lead counters missing: ensureIndexes() was not run');
    const keyPositions = new Map([...perTag.keys()].map((t) => [t, before.keys?.[t] ?? 0]));

    const docs = items.map((item, i): LeadDoc => {
      const tag = tags[i] as string;
      const seq = (before.seq ?? 0) + i + 1;
      const keyPosition = (keyPositions.get(tag) ?? 0) + 1;
      keyPositions.set(tag, keyPosition);
      const { lead } = item;
      const record: LeadRecord = {
        id: String(seq),
        lead_id: lead.lead_id,
        key_name: item.keyName,
        first_name: lead.first_name,
        last_name: lead.last_name,
        email: lead.email,
        phone: lead.phone,
        campaign_id: lead.campaign_id,
        ad_group_id: lead.ad_group_id,
        form_id: lead.form_id,
        gcl_id: lead.gcl_id,
        is_test: lead.is_test,
        lead_status: 'new',
        created_at: item.receivedAt,
        status_changed_at: null,
        status_changed_by: null,
      };
      const { id: _ignored, ...fields } = record;
      return {
        _id: ids[i] as string,
        seq,
        kp: `${tag}:${keyPosition}`,
        rev: 0,
        ...fields,
        status_history: [],
        raw: lead.raw,
        ...(item.event ? { event: item.event(record), batch } : {}),
      };
    });

    await this.indexArrivals(
      docs.map((d, i) => ({ seq: d.seq, tag: tags[i] as string })),
      '$addToSet',
    );

    const outcomes: (Outcome | Error)[] = docs.map(() => 'created');
    let unknown = new Set<number>();
    try {
      await this.leads.insertMany(docs, { ordered: false });
    } catch (err) {
      unknown = await this.settleFailedInserts(docs, err, outcomes);
    }

    // 5. Arrivals that were surely not stored are taken back (a failure here fails just those
    //    requests; a retry of theirs is then a duplicate or a new write).
    const notStored = docs.flatMap((d, i) =>
      outcomes[i] === 'created' || unknown.has(i) ? [] : [{ seq: d.seq, tag: tags[i] as string, i }],
    );
    if (notStored.length > 0) {
      try {
        await this.counters.updateOne({ _id: 'leads' }, { $inc: { total: -notStored.length, new: -notStored.length } });
        await this.indexArrivals(notStored, '$pullAll');
      } catch (err) {
        for (const { i } of notStored) outcomes[i] = err as Error;
      }
    }

    // With items in doubt the marker stays: the sweep publishes whatever was stored.
    if (this.events && announced.length > 0 && unknown.size === 0) {
      const published = docs.filter((d, i) => d.event && outcomes[i] === 'created').map((d) => d.event as OutboxEntry);
      this.events.publishNow(batch, announced, published);
    }
    return outcomes;
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
    const failure = (cause: unknown) =>
      new Error(
        `lead not stored: ${String((cause as Error)?.message ?? (cause as { errmsg?: string })?.errmsg ?? cause)}`,
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

  /** Adds positions to (or takes them out of) the `new` lists of their buckets: one update per bucket. */
  private async indexArrivals(entries: { seq: number; tag: string }[], op: '$addToSet' | '$pullAll'): Promise<void> {
    const byBucket = new Map<number, Map<string, number[]>>();
    for (const { seq, tag } of entries) {
      const paths = byBucket.get(bucketOf(seq)) ?? new Map<string, number[]>();
      byBucket.set(bucketOf(seq), paths);
      for (const path of ['s.new', `ks.${tag}.new`]) paths.set(path, [...(paths.get(path) ?? []), seq]);
    }
    await Promise.all(
      [...byBucket].map(async ([bucket, paths]) => {
        const update = {
          [op]: Object.fromEntries(
            [...paths].map(([path, seqs]) => [path, op === '$addToSet' ? { $each: seqs } : seqs]),
          ),
        } as Document;
        if (op === '$pullAll') {
          await this.buckets.updateOne({ _id: bucket }, update);
          return;
        }
        try {
          await this.buckets.updateOne({ _id: bucket }, update, { upsert: true });
        } catch (err) {
          // Two first writers of a new bucket: the loser's upsert collides; the document exists now.
          if (!isDuplicateKey(err)) throw err;
          await this.buckets.updateOne({ _id: bucket }, update);
        }
      }),
    );
  }

  // ---- reading ------------------------------------------------------------------------------

  async list(filter: LeadFilter, limit: number, before: number | null): Promise<LeadPage> {
    const tag = filter.key_name === undefined ? null : keyTag(filter.key_name);
    const counters = await this.counters.findOne(
      { _id: 'leads' },
      { projection: { seq: 1, ...(tag ? { [`keys.${tag}`]: 1 } : {}) } },
    );
    const keyMatches = (d: Row) => filter.key_name === undefined || d.key_name === filter.key_name;

    if (filter.status) {
      const status = filter.status;
      return this.listFromBuckets(
        counters?.seq ?? 0,
        before,
        limit,
        tag ? `ks.${tag}.${status}` : `s.${status}`,
        (d) => d.lead_status === status && keyMatches(d),
      );
    }
    if (tag) {
      return this.listDense(
        counters?.keys?.[tag] ?? 0,
        before,
        limit,
        (positions) => this.rows({ kp: { $in: positions.map((n) => `${tag}:${n}`) } }, { kp: 1 }),
        (d) => Number((d as Row & { kp?: string }).kp?.split(':')[1] ?? 0),
        keyMatches,
      );
    }
    return this.listDense(
      counters?.seq ?? 0,
      before,
      limit,
      (positions) => this.rows({ seq: { $in: positions } }),
      (d) => d.seq,
      () => true,
    );
  }

  private rows(filter: Filter<LeadDoc>, extra: Record<string, 1> = {}): Promise<Row[]> {
    return this.leads.find(filter, { projection: { ...ROW_FIELDS, ...extra } }).toArray() as Promise<Row[]>;
  }

  /**
   * A list whose positions run 1..top with few gaps (the full list, or one key's): the page is
   * the `limit` highest positions below `before`, fetched by `$in`; a gap (a position whose lead
   * was a repeat, or is still being written) just costs one more round.
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
    for (let round = 0; round < MAX_ROUNDS && next >= 1; round++) {
      const count = Math.min(next, limit - out.length + 2);
      const positions = Array.from({ length: count }, (_, i) => next - i);
      const docs = (await fetch(positions)).filter(accept).sort((a, b) => positionOf(b) - positionOf(a));
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

  /**
   * A list by status (and key): walks the status index newest first, batches of bucket documents
   * growing 2, 8, 32, 128, 256, and fetches the leads the index names by `$in` on `seq`.
   */
  private async listFromBuckets(
    top: number,
    before: number | null,
    limit: number,
    path: string,
    accept: (d: Row) => boolean,
  ): Promise<LeadPage> {
    const maxSeq = Math.min(before === null ? top : before - 1, top);
    const out: Row[] = [];
    let bucket = bucketOf(maxSeq);
    let batch = 2;
    for (let round = 0; round < MAX_ROUNDS && bucket >= 0 && maxSeq >= 1; round++) {
      const ids = Array.from({ length: Math.min(batch, bucket + 1) }, (_, i) => bucket - i);
      const docs = await this.buckets.find({ _id: { $in: ids } }, { projection: { [path]: 1 } }).toArray();
      const seqs = docs
        .flatMap((d) => (at(d, path) as number[] | undefined) ?? [])
        .filter((s) => s <= maxSeq)
        .sort((a, b) => b - a);
      for (let i = 0; i < seqs.length; ) {
        const chunk = seqs.slice(i, i + limit - out.length + 2);
        i += chunk.length;
        const rows = (await this.rows({ seq: { $in: chunk } })).filter(accept).sort((a, b) => b.seq - a.seq);
        for (const d of rows) {
          out.push(d);
          if (out.length === limit) return { leads: out.map(toRecord), nextBefore: d.seq > 1 ? d.seq : null };
        }
      }
      bucket -= ids.length;
      batch = Math.min(batch * 4, 256);
    }
    const rest = bucket >= 0 ? (bucket + 1) * 2 ** BUCKET_SHIFT : 0;
    return { leads: out.map(toRecord), nextBefore: rest > 1 && maxSeq >= 1 ? rest : null };
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
      const op: StatusOp = {
        // 72 random bits: unique enough for ids that live seconds, short in the moves document.
        _id: randomBytes(9).toString('base64url'),
        leadId: lead._id,
        seq,
        tag: keyTag(lead.key_name),
        from: lead.lead_status,
        to,
        rev: (lead.rev ?? 0) + 1,
        at,
      };
      // The marker first: if this process dies after the change, the repair sweep finishes it.
      await this.statusOps.insertOne(op);
      // The change itself only if nobody changed the lead since we read it (its rev; index
      // id_rev_unique); the history entry carries the op id, which is how the sweep knows the
      // change happened.
      const changed = await this.leads.findOneAndUpdate(
        { _id: lead._id, rev: lead.rev ?? 0 },
        {
          $set: { lead_status: to, rev: op.rev, status_changed_at: at, status_changed_by: by.email },
          $push: {
            status_history: { $each: [{ op: op._id, from: op.from, to, by, at }], $slice: -HISTORY_MAX },
          },
        },
        { returnDocument: 'before', projection: { _id: 1 } },
      );
      if (!changed) {
        // Another admin's change won; read again and apply ours on top of theirs.
        await this.statusOps.deleteOne({ _id: op._id });
        continue;
      }
      await this.applyStatusOp(op);
      return toRecord({ ...lead, lead_status: to, rev: op.rev, status_changed_at: at, status_changed_by: by.email });
    }
    throw conflict('The lead kept changing while saving. Please try again.');
  }

  /**
   * What follows a recorded status change: the counters (exactly once, by op id), the status
   * index (to the lead's status as it is now), then the marker goes.
   */
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
    await this.indexStatus(op.leadId, op.seq, op.tag);
    await this.statusOps.deleteOne({ _id: op._id });
  }

  /**
   * Files the lead under its current status in the bucket (by _id only). Two changes of one lead
   * may finish in either order, so after writing, the lead is read again: if it changed meanwhile,
   * the newer status is written too. Whoever writes last has seen the latest status.
   */
  private async indexStatus(leadId: string, seq: number, tag: string): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const lead = await this.leads.findOne({ _id: leadId }, { projection: { lead_status: 1, rev: 1 } });
      if (!lead) return;
      const status = lead.lead_status;
      await this.buckets.updateOne({ _id: bucketOf(seq) }, {
        $addToSet: { [`s.${status}`]: seq, [`ks.${tag}.${status}`]: seq },
        $pull: Object.fromEntries(
          LEAD_STATUSES.filter((other) => other !== status).flatMap((other) => [
            [`s.${other}`, seq],
            [`ks.${tag}.${other}`, seq],
          ]),
        ),
      } as Document);
      const now = await this.leads.findOne({ _id: leadId }, { projection: { rev: 1 } });
      if ((now?.rev ?? 0) === (lead.rev ?? 0)) return;
    }
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
