import type { ReportFileType, ReportSummary, ReportZipAnalysis, RequestStatus } from '@homereport/contracts';
import type { OutboxEntry } from '@homereport/kit';

/** What the use cases need from storage and caches; data/ provides them. Plain objects only. */

/** The most ranges of 1,000 places one read of the posting lists covers (`SearchIndex.matching`). */
export const WORD_RANGES_PER_READ = 32;

export interface Person {
  userId: string;
  email: string;
}

export interface FileRef {
  key: string;
  /** The client's file name, shown only as the download's file name. */
  name: string;
  contentType: string;
  size: number;
  uploaded_at: Date;
  /**
   * Also the file of other requests for the same address (duplicates covered with their original):
   * replacing it on one request must not remove the object the others still point at.
   */
  shared?: boolean;
}

export type ReportFiles = Partial<Record<ReportFileType, FileRef>>;

export interface RequestRecord {
  id: string;
  /** Creation order: 1, 2, 3... */
  seq: number;
  address: string;
  /** The normalised address (domain/property-key.ts). */
  addressKey: string;
  /** The property the request belongs to; '' only on a request stored before properties, not migrated yet. */
  propertyId: string;
  url: string | null;
  notes: string | null;
  status: RequestStatus;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  requester: Person | null;
  files: ReportFiles;
  /** Ids of events whose follow-up effects (counters, lists) are not confirmed applied yet. */
  pending: string[];
}

export interface NewRequest {
  id: string;
  address: string;
  addressKey: string;
  propertyId: string;
  url: string | null;
  notes: string | null;
  created_at: Date;
  requester: Person | null;
}

export interface StatusChange {
  from: RequestStatus;
  to: RequestStatus;
  by: Person;
  at: Date;
}

export interface RequestStore {
  newId(): string;
  /**
   * Stores the request with its events and a pending marker for `pendingId`. `ready`, a check
   * started before, is awaited before the write: its failure stores nothing.
   */
  insert(
    request: NewRequest,
    events: OutboxEntry[],
    pendingId: string,
    ready?: Promise<unknown>,
  ): Promise<RequestRecord>;
  find(id: string): Promise<RequestRecord | null>;
  findMany(ids: string[]): Promise<RequestRecord[]>;
  /** The newest `limit` requests at or below sequence `atMost` (default: all), newest first. */
  newest(limit: number, atMost?: number): Promise<RequestRecord[]>;
  /** The requests with these creation sequence numbers, newest first. */
  findBySeqs(seqs: number[]): Promise<RequestRecord[]>;
  /** The highest creation sequence number handed out. */
  topSeq(): Promise<number>;
  /**
   * Sets the request's status, recording the change in its history, its events and a pending
   * marker, in one write. Returns the request after and the status it really had before (which
   * differs from `change.from` only if another admin changed it a moment earlier); null if unknown.
   */
  changeStatus(
    id: string,
    change: StatusChange,
    events: OutboxEntry[],
    pendingId: string,
  ): Promise<{ after: RequestRecord; previous: RequestStatus } | null>;
  /** Points the request's file fields at new files; returns the request after and the files replaced. */
  setFiles(id: string, files: ReportFiles, at: Date): Promise<{ after: RequestRecord; replaced: FileRef[] } | null>;
  clearPending(id: string, pendingId: string): Promise<void>;
  /** Files the request under its property (a request stored before properties). */
  setProperty(id: string, propertyId: string, addressKey: string): Promise<void>;
}

/** One request of a property, as the property lists it. */
export interface PropertyRequest {
  id: string;
  /** The requester's user id; null when anonymous. */
  user: string | null;
  at: Date;
}

export interface PropertyRecord {
  id: string;
  key: string;
  address: string;
  requests: PropertyRequest[];
  /** While covered: the request whose files are the report, and its place in the covered list. */
  report: string | null;
  coveredSeq: number | null;
  /** The report's headline figures (decision 024): the property's, so every request of it shows the same. */
  summary: ReportSummary | null;
}

export interface PropertyStore {
  /** The property of this normalised address, created if it is the first (atomic: racing callers get one). */
  claim(key: string, address: string, at: Date): Promise<PropertyRecord>;
  find(id: string): Promise<PropertyRecord | null>;
  findMany(ids: string[]): Promise<PropertyRecord[]>;
  /** Lists a request under its property (idempotent); the property as it was before. */
  addRequest(id: string, entry: PropertyRequest): Promise<PropertyRecord | null>;
  /** Covers the property with this request's files at the top of the covered list; its new place. */
  cover(id: string, requestId: string, address: string): Promise<number>;
  /** Another covered request of the property stands for it, in the same place. */
  standIn(id: string, requestId: string): Promise<void>;
  /** Replaces the property's headline figures (null clears them); the property after, null if unknown. */
  setSummary(id: string, summary: ReportSummary | null): Promise<PropertyRecord | null>;
  /** The property leaves the covered list. */
  uncover(id: string): Promise<void>;
  /** The newest covered place handed out. */
  topCoveredSeq(): Promise<number>;
  /** Covered properties at these places, newest first. */
  byCoveredSeqs(seqs: number[]): Promise<PropertyRecord[]>;
  /**
   * Covered properties by city then address: all of them, or those at `seqs`; `offset` and
   * `limit` page them.
   */
  byCity(seqs: number[] | null, offset: number, limit: number): Promise<PropertyRecord[]>;
}

export interface SearchIndex {
  /** Files request `seq` under each term (idempotent). */
  add(seq: number, terms: string[]): Promise<void>;
  /** Files request `seq` under its status now, and under no other status (idempotent). */
  setStatus(seq: number, status: RequestStatus): Promise<void>;
  /**
   * Requests holding every term, newest first, from sequence `atMost` down over a bounded stretch;
   * `below` is where the next call goes on (negative when the start was reached). With words,
   * `wordRanges` (at most 32) sets how many ranges of 1,000 it reads; 32 when not given.
   */
  matching(terms: string[], atMost: number, wordRanges?: number): Promise<{ seqs: number[]; below: number }>;
}

export interface RequestCounts {
  total: number;
  /** Distinct properties requested. */
  properties: number;
  requested: number;
  in_progress: number;
  covered: number;
  totalAccess: number;
}

export interface UserCounts {
  totalUsers: number;
  verifiedUsers: number;
}

export type CountDelta = Partial<Record<keyof RequestCounts, number>>;

export interface StatsStore {
  /** Applies `delta` once per `effectId` (a repeated id within the recent window changes nothing). */
  applyRequestDelta(effectId: string, delta: CountDelta): Promise<boolean>;
  requestCounts(): Promise<RequestCounts>;
  applyUserDelta(effectId: string, delta: Partial<UserCounts>): Promise<boolean>;
  userCounts(): Promise<UserCounts>;
}

export interface HistoryEntry {
  id: string;
  request_id: string;
  property_id?: string;
  address: string;
  accessed_at: Date;
}

export interface UserActivity {
  userId: string;
  anchor: Date | null;
  totalAccess: number;
  uniqueReports: number;
  history: HistoryEntry[];
  requests: string[];
}

export interface ViewRecord {
  viewId: string;
  userId: string;
  requestId: string;
  /** The property viewed (what credits and "unique reports" count); absent for a request stored before them. */
  propertyId?: string;
  address: string;
  at: Date;
  charged: boolean;
  pending: boolean;
}

export type ChargeOutcome = 'charged' | 'already-opened' | 'no-credits';

export interface ActivityStore {
  find(userId: string): Promise<UserActivity | null>;
  /** The user's credit anchor, set to `now` at their first view. */
  ensureAnchor(userId: string, now: Date): Promise<Date>;
  /** Remembers a request of the user (newest last, bounded), once. */
  addRequest(userId: string, requestId: string): Promise<void>;
  /** Adds a view to the user's counters and recent history (the caller holds the view's claim). */
  addView(userId: string, entry: HistoryEntry, firstEver: boolean): Promise<void>;
  /** Whether this view is the user's first ever view of that property (decided once, stably). */
  firstView(userId: string, unitId: string, viewId: string, at: Date): Promise<boolean>;
}

export interface CreditStore {
  /** Credits left in a period; a period never touched has the full allowance. */
  creditsLeft(userId: string, periodIndex: number): Promise<number>;
  /** Spends a credit on `requestId` unless it was opened in this period already (atomic). */
  charge(userId: string, periodIndex: number, requestId: string): Promise<ChargeOutcome>;
}

export interface ViewLedger {
  record(view: ViewRecord, events: OutboxEntry[]): Promise<void>;
  find(viewId: string): Promise<ViewRecord | null>;
  /** Takes the view's pending mark; true for exactly one caller (the one that applies its user side). */
  claimPending(viewId: string): Promise<boolean>;
}

export interface UserDirectory {
  /** Marks a user as seen (and verified); says which counters still need this user. */
  observe(userId: string, verified: boolean): Promise<{ countRegistered: boolean; countVerified: boolean }>;
  markCounted(userId: string, what: 'registered' | 'verified'): Promise<void>;
}

/**
 * The generation of the public covered list (kit's cache-generation.ts): every change to a covered
 * request bumps it, and an answer built after reading it may be kept until the next bump.
 */
export interface CoveredGeneration {
  /** The Redis key holding it, as the gateway is told (x-cache-generation). */
  readonly key: string;
  /** null while Redis does not answer within the cache's short deadline: nothing may be kept then. */
  current(): Promise<string | null>;
  bump(): Promise<void>;
}

export interface LinkSigner {
  sign(objectKey: string): string;
}

/** A warning sink: the request's logger. */
export interface WarningLog {
  warn(obj: object, msg: string): void;
}

/**
 * The ZIP code analyses (the zipcodes service): the headline figures of one ZIP's analysis, or
 * null when it has none or cannot say now. Never throws: the analysis is context on a report,
 * and a report is opened (and paid for) all the same without it.
 */
export interface ZipContext {
  headline(zipCode: string, context: { requestId: string; log: WarningLog }): Promise<ReportZipAnalysis | null>;
}
