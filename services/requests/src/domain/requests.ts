import {
  type CoverageRequest,
  type CreateRequestReply,
  REPORT_FILE_TYPES,
  type RecentRequest,
  type ReportFileType,
  type ReportPathField,
  type RequestStatus,
  type RequestSummary,
} from '@homereport/contracts';
import {
  type OutboxEntry,
  badRequest,
  businessMetrics,
  conflict,
  notFound,
  unavailableDependency,
} from '@homereport/kit';
import { requestCovered, requestStatusChanged, requestSubmitted } from '../events/published.js';
import { addressKey, cleanAddress, optionalText } from './address.js';
import type {
  ActivityStore,
  AddressIndex,
  CountDelta,
  CoveredCatalogue,
  CoveredGeneration,
  FileRef,
  LinkSigner,
  Person,
  ReportFiles,
  RequestRecord,
  RequestStore,
  SearchIndex,
  StatsStore,
} from './ports.js';
import { addressTerms, queryTerms, statusTerm } from './search-terms.js';

const DUPLICATE_WINDOW_DAYS = 30;
/** Who a request is shown to: its requester or an admin (notes included), or anyone (no notes). */
const OWNER = { withNotes: true } as const;
const PUBLIC = { withNotes: false } as const;
const DUPLICATE_WINDOW_MS = DUPLICATE_WINDOW_DAYS * 24 * 60 * 60 * 1000;
/** The public covered list: page size when none is asked for, and the largest page. */
export const COVERED_PAGE_DEFAULT = 100;
export const COVERED_PAGE_MAX = 100;
/** Rounds of posting reads per admin search call (each covers 32,000 requests, 8,000 for a status alone). */
const SEARCH_ROUNDS = 4;
/** The public search's page size when none is asked for. */
export const SEARCH_PAGE_DEFAULT = 24;
/** The admin's full list: default and largest page. */
export const ADMIN_PAGE_DEFAULT = 50;
export const ADMIN_PAGE_MAX = 200;
const REINDEX_BATCH = 500;
/** Admin dashboard's Recent Requests. */
const RECENT_REQUESTS = 20;

const STATUS_COUNTER: Record<RequestStatus, keyof CountDelta> = {
  requested: 'requested',
  in_progress: 'in_progress',
  covered: 'covered',
};

const STATUS_RANK: Record<RequestStatus, number> = { requested: 0, in_progress: 1, covered: 2 };

/** The same files, marked as shared between requests for one address. */
function sharedFiles(files: ReportFiles): ReportFiles {
  return Object.fromEntries(Object.entries(files).map(([type, file]) => [type, { ...file, shared: true }]));
}

export const Messages = {
  blankAddress: 'Please enter the property address.',
  badUrl: 'The listing URL must be a web address starting with http:// or https://.',
  notFound: 'Request not found.',
  tooManyAnonymous:
    'You have sent several requests in a short time. Please wait before sending another, or sign in to request more properties.',
  reportFileMissing: 'Upload the main report file before marking this request Covered.',
  reportNotFound: 'Report not found. It does not exist or is not completed yet.',
} as const;

/**
 * A request as the API shows it: file links only when a signer is given (never in public lists),
 * the requester's notes only to the requester and admins (`withNotes`), `null` to everyone else.
 */
export function toApi(
  record: RequestRecord,
  signer: LinkSigner | null,
  { withNotes }: { withNotes: boolean },
): CoverageRequest {
  const link = (type: ReportFileType) => {
    const file = record.files[type];
    return signer && file ? signer.sign(file.key) : null;
  };
  return {
    id: record.id,
    address: record.address,
    url: record.url,
    notes: withNotes ? record.notes : null,
    status: record.status,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
    ...(Object.fromEntries(REPORT_FILE_TYPES.map((type) => [`${type}_path`, link(type)])) as Record<
      ReportPathField,
      string | null
    >),
  };
}

export function summary(record: RequestRecord): RequestSummary {
  return {
    id: record.id,
    address: record.address,
    url: record.url,
    notes: record.notes,
    status: record.status,
    created_at: record.created_at.toISOString(),
  };
}

function listingUrl(raw: string | undefined): string | null {
  const url = optionalText(raw);
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
  } catch {}
  throw badRequest(Messages.badUrl);
}

export interface RequestsDeps {
  requests: RequestStore;
  addresses: AddressIndex;
  stats: StatsStore;
  activity: ActivityStore;
  search: SearchIndex;
  catalogue: CoveredCatalogue;
  generation: CoveredGeneration;
  signer: LinkSigner;
  onCacheError: (err: unknown) => void;
  now?: () => Date;
}

/** Coverage requests: submission, lists, status changes, report files, admin counters. */
export class Requests {
  private readonly now: () => Date;

  constructor(private readonly deps: RequestsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async submit(
    input: { address: string; url?: string; notes?: string },
    requester: Person | null,
    correlationId: string,
  ): Promise<CreateRequestReply> {
    const address = cleanAddress(input.address);
    if (address.length === 0) throw badRequest(Messages.blankAddress);
    const url = listingUrl(input.url);
    const notes = optionalText(input.notes);
    const key = addressKey(address);
    const now = this.now();
    // Looked up while the store prepares the insert; the insert waits for it, so a failure
    // stores nothing (a client that retries after 503 makes one request, not two).
    const earlier = this.ownEarlierRequest(key, requester, now);
    earlier.catch(() => undefined); // awaited through insert

    const id = this.deps.requests.newId();
    const record: RequestRecord = {
      id,
      seq: 0, // given by the store on insert
      address,
      addressKey: key,
      url,
      notes,
      status: 'requested',
      created_at: now,
      updated_at: now,
      completed_at: null,
      requester,
      files: {},
      pending: [],
    };
    const event = requestSubmitted({ request: summary(record), requester }, correlationId);
    const stored = await this.deps.requests.insert(
      { id, address, addressKey: key, url, notes, created_at: now, requester },
      [event],
      event.id,
      earlier,
    );
    const duplicateOf = await earlier;
    businessMetrics.requestSubmitted(requester !== null);
    // The request is stored with its event: it is accepted. If a dependency fails the follow-up
    // steps now, the consumer of request-submitted finishes them (the document stays pending).
    await this.afterSubmit(stored, event.id).catch((err: unknown) => {
      if (!unavailableDependency(err)) throw err;
    });
    return { request: toApi(stored, null, OWNER), ...(duplicateOf ? { duplicate_of: duplicateOf } : {}) };
  }

  /**
   * The caller's own earlier request for the same address in the duplicate window, if any: only
   * that is theirs to be told of. Anyone else's (or any, to an anonymous caller) would tell a
   * stranger that someone asked about this address, and who to ask about.
   */
  private async ownEarlierRequest(key: string, requester: Person | null, now: Date): Promise<string | undefined> {
    if (!requester) return undefined;
    const previous = await this.deps.addresses.latest(key);
    if (!previous || now.getTime() - previous.at.getTime() >= DUPLICATE_WINDOW_MS) return undefined;
    const earlier = await this.deps.requests.find(previous.requestId);
    return earlier?.requester?.userId === requester.userId ? earlier.id : undefined;
  }

  /**
   * What follows a submission: counters, the requester's list, the address index. Each step is
   * idempotent, so the consumer of our own request-submitted may repeat them after a crash.
   */
  async afterSubmit(record: RequestRecord, effectId: string): Promise<void> {
    const requester = record.requester;
    await Promise.all([
      this.deps.stats.applyRequestDelta(effectId, { total: 1, requested: 1 }),
      requester ? this.deps.activity.addRequest(requester.userId, record.id) : undefined,
      this.deps.addresses.remember(record.addressKey, record.id, record.created_at),
      this.deps.search.add(record.seq, [...addressTerms(record.address), statusTerm('requested')]),
    ]);
    await this.deps.requests.clearPending(record.id, effectId);
  }

  async changeStatus(
    id: string,
    to: RequestStatus,
    by: Person,
    correlationId: string,
    { announce = true, followers = true }: { announce?: boolean; followers?: boolean } = {},
  ): Promise<CoverageRequest> {
    const current = await this.deps.requests.find(id);
    if (!current) throw notFound(Messages.notFound);
    if (current.status === to) return toApi(current, this.deps.signer, OWNER);
    // Covered means a report a user can read, and spends their credit: never without the file.
    if (to === 'covered' && !current.files.report) throw conflict(Messages.reportFileMissing);
    const at = this.now();
    const change = { from: current.status, to, by, at };
    const changed = requestStatusChanged(
      { requestId: id, from: current.status, to, by, at: at.toISOString() },
      correlationId,
    );
    const events: OutboxEntry[] = [changed];
    // The "ready" email goes out the first time a request is covered, not again when an admin
    // sets it back and covers it once more (completed_at stays from that first time).
    if (to === 'covered' && current.completed_at === null && announce) {
      events.push(
        requestCovered(
          {
            request: { ...summary(current), status: 'covered' },
            requester: current.requester,
            completed_at: at.toISOString(),
          },
          correlationId,
        ),
      );
    }
    const result = await this.deps.requests.changeStatus(id, change, events, changed.id);
    if (!result) throw notFound(Messages.notFound);
    if (to === 'covered' && result.previous !== 'covered' && followers) businessMetrics.reportCovered();
    // The counters move from the status the request really had (another admin may have changed
    // it between our read and our write; the history and event then name the one we read).
    await this.afterStatusChange(id, changed.id, result.previous, to, followers ? { by, correlationId } : null);
    return toApi(result.after, this.deps.signer, OWNER);
  }

  /**
   * Counters, the covered list and the request's duplicates follow a status change; idempotent
   * like afterSubmit (duplicates already covered are left as they are).
   */
  async afterStatusChange(
    id: string,
    effectId: string,
    from: RequestStatus,
    to: RequestStatus,
    followers: { by: Person; correlationId: string } | null,
  ): Promise<void> {
    if (from !== to) {
      await this.deps.stats.applyRequestDelta(effectId, { [STATUS_COUNTER[from]]: -1, [STATUS_COUNTER[to]]: 1 });
    }
    // Filed under the status the request has now (read again: a later change may have won the race).
    const record = await this.deps.requests.find(id);
    if (record) await this.deps.search.setStatus(record.seq, record.status);
    if (to === 'covered' && followers) await this.coverDuplicates(id, followers.by, followers.correlationId);
    if (from === 'covered' || to === 'covered') await this.invalidateCovered();
    await this.deps.requests.clearPending(id, effectId);
  }

  /**
   * "The report will cover both": open requests for the same address, made within the duplicate
   * window of this one, become covered with its files. Each requester hears once, even one who
   * asked twice (and each request's ready event has a fixed id, so a racing run repeats it, not adds). The files are marked shared on every request, so replacing one request's file
   * later does not delete the object the others read.
   */
  private async coverDuplicates(id: string, by: Person, correlationId: string): Promise<void> {
    const original = await this.deps.requests.find(id);
    if (!original || original.status !== 'covered' || !original.files.report) return;
    const near = (await this.deps.addresses.all(original.addressKey)).filter(
      (entry) =>
        entry.requestId !== original.id &&
        Math.abs(entry.at.getTime() - original.created_at.getTime()) < DUPLICATE_WINDOW_MS,
    );
    const siblings = await this.deps.requests.findMany(near.map((entry) => entry.requestId));
    const open = siblings
      .filter((record) => record.status !== 'covered')
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    if (open.length === 0) return;
    // Who hears: each requester once: the original's requester for the original (told already),
    // anyone else for their earliest request of the set. Decided from the whole set, not from
    // what this run has done, so a second run racing this one decides alike.
    const firstOf = new Map<string, RequestRecord>();
    if (original.requester) firstOf.set(original.requester.userId, original);
    for (const record of siblings) {
      const userId = record.requester?.userId;
      const first = userId ? firstOf.get(userId) : undefined;
      if (userId && (!first || (first !== original && record.created_at < first.created_at)))
        firstOf.set(userId, record);
    }
    const files = sharedFiles(original.files);
    const now = this.now();
    await this.deps.requests.setFiles(original.id, files, now);
    for (const record of open) {
      await this.deps.requests.setFiles(record.id, files, now);
      const announce = !record.requester || firstOf.get(record.requester.userId)?.id === record.id;
      await this.changeStatus(record.id, 'covered', by, correlationId, { announce, followers: false });
    }
  }

  /** Called by the files service once new objects are stored; answers with the replaced files. */
  async recordFiles(id: string, files: ReportFiles): Promise<{ request: CoverageRequest; replaced: FileRef[] }> {
    const result = await this.deps.requests.setFiles(id, files, this.now());
    if (!result) throw notFound(Messages.notFound);
    if (result.after.status === 'covered') await this.invalidateCovered();
    // A shared file is still another request's: it stays in storage.
    const replaced = result.replaced.filter((file) => !file.shared);
    return { request: toApi(result.after, this.deps.signer, OWNER), replaced };
  }

  /**
   * Public: covered requests, most recently covered first, without file links, serialized. The
   * first page (what everyone sees) is named with the generation it was read in, so the gateway
   * may keep it until the next change (decision 008): the service keeps no copy of its own.
   */
  async covered(
    limit: number,
    cursor: number | null,
  ): Promise<{ body: string; generation?: { key: string; value: string } }> {
    // Read before the page, never after: a change landing between the two then bumps past this
    // generation, so the gateway drops the page instead of keeping an old page under a new name.
    const generation = cursor === null && limit === COVERED_PAGE_DEFAULT ? await this.currentGeneration() : undefined;
    const page = await this.deps.requests.coveredPage(limit, cursor);
    const body = JSON.stringify({
      properties: page.items.map((r) => toApi(r, null, PUBLIC)),
      next_cursor: page.next === null ? null : String(page.next),
    });
    return generation === undefined
      ? { body }
      : { body, generation: { key: this.deps.generation.key, value: generation } };
  }

  /** The covered list's generation; none (the answer is then not kept) while Redis does not answer. */
  private async currentGeneration(): Promise<string | undefined> {
    try {
      return (await this.deps.generation.current()) ?? undefined;
    } catch (err) {
      this.deps.onCacheError(err);
      return undefined;
    }
  }

  /**
   * Public search of covered reports: every word of `q` found in the address (parts of words
   * too: "aus" finds Austin), newest covered first or by city; `offset` is the cursor.
   */
  async searchCovered(query: {
    q?: string;
    sort: 'newest' | 'city';
    limit: number;
    offset: number;
  }): Promise<{ properties: CoverageRequest[]; next_cursor: string | null }> {
    const catalogue = await this.deps.catalogue.entries();
    const words = queryTerms(query.q);
    const all = query.sort === 'city' ? catalogue.byCity : catalogue.newest;
    const found = words.length === 0 ? all : all.filter((e) => words.every((w) => e.text.includes(w)));
    const page = found.slice(query.offset, query.offset + query.limit);
    const byId = new Map((await this.deps.requests.findMany(page.map((e) => e.id))).map((r) => [r.id, r]));
    const end = query.offset + page.length;
    return {
      properties: page.flatMap((e) => {
        const record = byId.get(e.id);
        return record?.status === 'covered' ? [toApi(record, null, PUBLIC)] : [];
      }),
      next_cursor: end < found.length ? String(end) : null,
    };
  }

  /**
   * The admin's full request list, newest first: every word of `q` a whole word of the address,
   * and the status when given. The cursor is the creation sequence number to go on from.
   */
  async adminList(query: {
    q?: string;
    status?: RequestStatus;
    limit: number;
    cursor: number | null;
  }): Promise<{ requests: CoverageRequest[]; next_cursor: string | null }> {
    const top = query.cursor ?? (await this.deps.requests.topSeq());
    const terms = [...queryTerms(query.q), ...(query.status ? [statusTerm(query.status)] : [])];
    const page = (records: RequestRecord[]) => records.map((r) => toApi(r, null, OWNER));
    if (terms.length === 0) {
      const records = await this.deps.requests.newest(query.limit, top);
      const last = records[records.length - 1];
      return { requests: page(records), next_cursor: last && last.seq > 1 ? String(last.seq - 1) : null };
    }
    const found: RequestRecord[] = [];
    let atMost = top;
    // Bounded work per call: a rare term over many requests answers a short page and a cursor.
    for (let round = 0; round < SEARCH_ROUNDS && atMost > 0 && found.length < query.limit; round++) {
      const { seqs, below } = await this.deps.search.matching(terms, atMost);
      for (let i = 0; i < seqs.length && found.length < query.limit; i += query.limit) {
        const batch = seqs.slice(i, i + query.limit);
        const records = await this.deps.requests.findBySeqs(batch);
        // A status list may lag a change by a moment: the status the request has now decides.
        for (const r of records) {
          if (found.length < query.limit && (!query.status || r.status === query.status)) {
            found.push(r);
            atMost = r.seq - 1;
          }
        }
        if (found.length < query.limit) atMost = Math.min(atMost, (batch[batch.length - 1] ?? atMost) - 1);
      }
      if (found.length < query.limit) atMost = below;
    }
    return { requests: page(found), next_cursor: atMost > 0 ? String(atMost) : null };
  }

  /**
   * Files every request made before the search existed in the posting lists, oldest first, from
   * where the last run stopped (`progress.read`) up to the newest request when the first run began
   * (`progress.until`, set once); idempotent, so two replicas doing it at once is only wasted
   * work. Requests made since are filed by their own submission, so no later start reads them.
   */
  async indexEarlierRequests(progress: {
    read(): Promise<number>;
    save(seq: number): Promise<void>;
    until(top: number): Promise<number>;
  }) {
    const top = await progress.until(await this.deps.requests.topSeq());
    for (let from = (await progress.read()) + 1; from <= top; from += REINDEX_BATCH) {
      const seqs = Array.from({ length: Math.min(REINDEX_BATCH, top - from + 1) }, (_, i) => from + i);
      for (const record of await this.deps.requests.findBySeqs(seqs)) {
        await this.deps.search.add(record.seq, [...addressTerms(record.address), statusTerm(record.status)]);
      }
      await progress.save(seqs[seqs.length - 1] ?? from);
    }
  }

  async forAdmin(id: string): Promise<CoverageRequest> {
    const record = await this.deps.requests.find(id);
    if (!record) throw notFound(Messages.notFound);
    return toApi(record, this.deps.signer, OWNER);
  }

  async exists(id: string): Promise<{ id: string; status: RequestStatus } | null> {
    const record = await this.deps.requests.find(id);
    return record ? { id: record.id, status: record.status } : null;
  }

  async mine(userId: string): Promise<CoverageRequest[]> {
    const activity = await this.deps.activity.find(userId);
    const ids = [...(activity?.requests ?? [])].reverse();
    if (ids.length === 0) return [];
    const byId = new Map((await this.deps.requests.findMany(ids)).map((r) => [r.id, r]));
    // One line per property: the request furthest along stands for the others (newest on a tie).
    const shown = new Map<string, RequestRecord>();
    for (const id of ids) {
      const record = byId.get(id);
      if (!record) continue;
      const kept = shown.get(record.addressKey);
      if (!kept || STATUS_RANK[record.status] > STATUS_RANK[kept.status]) shown.set(record.addressKey, record);
    }
    return [...shown.values()]
      .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
      .map((record) => toApi(record, null, OWNER));
  }

  async recent(): Promise<RecentRequest[]> {
    const records = await this.deps.requests.newest(RECENT_REQUESTS);
    return records.map((r) => ({
      id: r.id,
      address: r.address,
      created_at: r.created_at.toISOString(),
      notes: r.notes,
      status: r.status,
    }));
  }

  async dashboard() {
    const [requests, users] = await Promise.all([this.deps.stats.requestCounts(), this.deps.stats.userCounts()]);
    return {
      total: requests.total,
      requested: requests.requested,
      inProgress: requests.in_progress,
      covered: requests.covered,
      totalUsers: users.totalUsers,
      verifiedUsers: users.verifiedUsers,
      totalAccess: requests.totalAccess,
    };
  }

  private async invalidateCovered(): Promise<void> {
    try {
      await this.deps.generation.bump();
    } catch (err) {
      // The state change stands; the kept answers' expiry bounds how long the list may be stale.
      this.deps.onCacheError(err);
    }
  }
}
