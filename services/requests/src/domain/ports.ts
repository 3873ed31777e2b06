import type { ReportFileType, RequestStatus } from '@homereport/contracts';
import type { OutboxEntry } from '@homereport/kit';

/** What the use cases need from storage and caches; data/ provides them. Plain objects only. */

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
  /** The duplicate-detection key of the address (domain/address.ts). */
  addressKey: string;
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
  /** Every covered request that has its report file, most recently covered first. */
  allCovered(): Promise<{ id: string; address: string }[]>;
  /** The highest creation sequence number handed out. */
  topSeq(): Promise<number>;
  /** Covered requests, most recently covered first, below `before` (a covered sequence number). */
  coveredPage(limit: number, before: number | null): Promise<{ items: RequestRecord[]; next: number | null }>;
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
}

export interface AddressIndex {
  /** The latest request for this address key, if any. */
  latest(addressKey: string): Promise<{ requestId: string; at: Date } | null>;
  remember(addressKey: string, requestId: string, at: Date): Promise<void>;
  /** Every request remembered for this address key (duplicates of each other within a window). */
  all(addressKey: string): Promise<{ requestId: string; at: Date }[]>;
}

/** A covered request as the public search reads it: its words, its city. */
export interface CatalogueEntry {
  id: string;
  /** The address's words, lower case, space-separated. */
  text: string;
  city: string;
}

export interface CoveredCatalogue {
  /** Every covered request with a report: most recently covered first, and by city. */
  entries(): Promise<{ newest: CatalogueEntry[]; byCity: CatalogueEntry[] }>;
}

export interface SearchIndex {
  /** Files request `seq` under each term (idempotent). */
  add(seq: number, terms: string[]): Promise<void>;
  /** Files request `seq` under its status now, and under no other status (idempotent). */
  setStatus(seq: number, status: RequestStatus): Promise<void>;
  /**
   * Requests holding every term, newest first, from sequence `atMost` down over a bounded stretch;
   * `below` is where the next call goes on (negative when the start was reached).
   */
  matching(terms: string[], atMost: number): Promise<{ seqs: number[]; below: number }>;
}

export interface RequestCounts {
  total: number;
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
  /** Whether this view is the user's first ever view of that report (decided once, stably). */
  firstView(userId: string, requestId: string, viewId: string, at: Date): Promise<boolean>;
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
