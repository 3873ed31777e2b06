import type { ReportSummary } from '@homereport/contracts';
import { CLAIM_INDEXES, type IndexSpec, type OutboxEntry, ignoreDuplicate } from '@homereport/kit';
import type { Collection, Db } from 'mongodb';
import type { FileRef, HistoryEntry, RequestRecord, StatusChange, ViewRecord } from '../domain/ports.js';

/**
 * The requests database. The embedded MongoDB-protocol server answers quickly only through `_id`
 * and unique indexes, so every query a user's call makes is an equality on one of them; counts
 * and "newest N" lists come from documents kept up to date by atomic single-document writes.
 *
 * Measured on mongo-java-server at 100k documents: a findOne, findOneAndUpdate or updateOne whose
 * filter has anything beside `_id` scans the collection whenever it does not match at once
 * (seconds per call). So writes to large collections filter on `_id` alone and decide from the
 * document as it was just before (`returnDocument: 'before'`); a conditional filter appears only
 * on the two-document `stats` collection, where a scan costs nothing.
 */

/** A request as stored: the domain's record under `_id`, with what only the database keeps. */
export interface RequestDoc extends Omit<RequestRecord, 'id' | 'files' | 'propertyId'> {
  _id: string;
  /** Absent only on a request stored before properties and not migrated yet (cli/migrate.ts). */
  property_id?: string;
  /** Held only by requests covered before properties (the list's key then); removed when they leave covered. */
  coveredSeq?: number;
  files: Record<string, FileRef>;
  /** Every status change with who made it and when (the last 100). */
  status_history: StatusChange[];
  outbox: OutboxEntry[];
}

/** Named sequence numbers: `{ _id: 'requests' | 'covered', value }`. */
interface CounterDoc {
  _id: string;
  value: number;
}

/** One request of a property, as its property lists it. */
export interface PropertyRequestEntry {
  id: string;
  /** The requester's user id; null for an anonymous request. */
  user: string | null;
  at: Date;
}

/**
 * A property: one per normalised address (`key`, unique; domain/property-key.ts). Its requests are
 * listed here (a property is requested a handful of times, not thousands), so duplicates, the
 * count and "covering one covers all" are reads of this one document.
 */
export interface PropertyDoc {
  _id: string;
  key: string;
  /** The address as first typed. */
  address: string;
  created_at: Date;
  requests: PropertyRequestEntry[];
  /** While covered: the request whose files are the report, and the place in the covered list. */
  report?: string;
  coveredSeq?: number;
  /** While covered: `<city>\u0001<address>` in lower case, the public search's city order. */
  city_order?: string;
  /** The report's headline figures, as staff entered them (absent until they do; decision 024). */
  summary?: ReportSummary;
}

/**
 * The admin dashboard's counters: `_id: 'requests'` (by status, and report views) and
 * `_id: 'users'` (fed by auth's events). `seen` holds the latest effect ids applied, so applying
 * the same effect twice (a retry, the backstop consumer) counts it once.
 */
export interface StatsDoc {
  _id: 'requests' | 'users';
  total?: number;
  properties?: number;
  requested?: number;
  in_progress?: number;
  covered?: number;
  totalAccess?: number;
  totalUsers?: number;
  verifiedUsers?: number;
  seen: string[];
}

/** One per user: credit anchor, view counters, recent views and their own requests. */
export interface ActivityDoc {
  _id: string;
  /** The start of the user's first credit period (their first report view). */
  anchor?: Date | null;
  totalAccess: number;
  uniqueReports: number;
  /** The latest views, oldest first (bounded). */
  history: HistoryEntry[];
  /** Ids of the user's own requests, oldest first (bounded). */
  requests: string[];
}

/** One per user and credit period: `_id: <userId>:<period index>`. */
interface CreditPeriodDoc {
  _id: string;
  userId: string;
  index: number;
  credits: number;
  /** Reports opened in this period: reopening them is free. */
  opened: string[];
  /** Properties whose request ids opened before properties were merged (migrations/credits-per-property.ts). */
  merged?: string[];
}

/** One per user and report ever opened: `_id: <userId>:<requestId>`; decides "unique reports". */
interface UserReportDoc {
  _id: string;
  firstViewId: string;
  firstAt: Date;
}

/** The access ledger: one document per view (its id the `_id`), with its report-viewed event until published. */
interface AccessDoc extends Omit<ViewRecord, 'viewId' | 'pending'> {
  _id: string;
  /** Set until the view's counters and history entry are confirmed applied. */
  pending?: boolean;
  outbox: OutboxEntry[];
}

/** Users known from auth's events, and which dashboard counters already include them. */
interface DirectoryDoc {
  _id: string;
  verified: boolean;
  registeredCounted: boolean;
  verifiedCounted: boolean;
  firstSeenAt: Date;
}

/**
 * One posting list per search term and range of 1,000 request sequence numbers:
 * `_id: "<term>#<seq div 1000>"`, `seqs` the requests of that range holding the term. A search
 * reads the lists of its terms range by range, newest first, by `_id`: its cost follows the page,
 * not the number of requests.
 */
export interface PostingDoc {
  _id: string;
  seqs: number[];
}

export interface Collections {
  requests: Collection<RequestDoc>;
  counters: Collection<CounterDoc>;
  properties: Collection<PropertyDoc>;
  /** The public search's posting lists: PostingDoc, over covered properties' `coveredSeq`. */
  coveredPostings: Collection<PostingDoc>;
  stats: Collection<StatsDoc>;
  activity: Collection<ActivityDoc>;
  creditPeriods: Collection<CreditPeriodDoc>;
  userReports: Collection<UserReportDoc>;
  accessLog: Collection<AccessDoc>;
  directory: Collection<DirectoryDoc>;
  postings: Collection<PostingDoc>;
}

export function collections(db: Db): Collections {
  return {
    requests: db.collection<RequestDoc>('requests'),
    counters: db.collection<CounterDoc>('counters'),
    properties: db.collection<PropertyDoc>('properties'),
    coveredPostings: db.collection<PostingDoc>('covered_postings'),
    stats: db.collection<StatsDoc>('stats'),
    activity: db.collection<ActivityDoc>('user_activity'),
    creditPeriods: db.collection<CreditPeriodDoc>('credit_periods'),
    userReports: db.collection<UserReportDoc>('user_reports'),
    accessLog: db.collection<AccessDoc>('access_log'),
    directory: db.collection<DirectoryDoc>('user_directory'),
    postings: db.collection<PostingDoc>('search_postings'),
  };
}

/**
 * The indexes this release reads through, created by its migrations (migrations/index.ts) and
 * checked at start; every other collection is read and written by _id only (decision 028).
 */
export const INDEXES: IndexSpec[] = [
  // GET /api/admin/recent-requests: find({ seq: { $in: [newest..newest-19] } }).
  { collection: 'requests', key: { seq: 1 }, unique: true, name: 'seq_unique' },
  // GET /api/requests/covered: find({ coveredSeq: { $in: [...] } }); sparse, as only covered requests hold one.
  { collection: 'requests', key: { coveredSeq: 1 }, unique: true, sparse: true, name: 'coveredSeq_unique' },
  // A property per normalised address: claimed by an upsert on the key, which this index makes atomic.
  { collection: 'properties', key: { key: 1 }, unique: true, name: 'key_unique' },
  // The covered list: find({ coveredSeq: { $in: [...] } }), as the requests' list was read before properties.
  { collection: 'properties', key: { coveredSeq: 1 }, unique: true, sparse: true, name: 'coveredSeq_unique' },
  // The public search by city (properties-repository.ts, cityPage).
  { collection: 'properties', key: { city_order: 1 }, sparse: true, name: 'city_order' },
  ...CLAIM_INDEXES,
];

/** The dashboard's two counter documents, before the first request (idempotent). */
export async function prepare(c: Collections): Promise<void> {
  for (const _id of ['requests', 'users'] as const) {
    await c.stats.insertOne({ _id, seen: [] }).catch(ignoreDuplicate);
  }
}

/**
 * The next number of a named sequence. `returnDocument: 'before'` and +1, not 'after': measured
 * on the embedded server, 50 concurrent $inc with 'after' returned only 44 distinct values (the
 * document is read again after the update, seeing neighbours' increments), with 'before' all 50.
 */
export async function nextValue(counters: Collection<CounterDoc>, name: string): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await counters.findOneAndUpdate({ _id: name }, { $inc: { value: 1 } }, { returnDocument: 'before' });
    if (before) return before.value + 1;
    // The sequence's first use: create it at 0 (a racing creator wins; we then increment theirs).
    await counters.insertOne({ _id: name, value: 0 }).catch(ignoreDuplicate);
  }
  throw new Error(`sequence ${name} could not be advanced`);
}

export async function currentValue(counters: Collection<CounterDoc>, name: string): Promise<number> {
  return (await counters.findOne({ _id: name }))?.value ?? 0;
}
