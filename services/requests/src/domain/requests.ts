import {
  type CoverageRequest,
  type CreateRequestReply,
  REPORT_FILE_TYPES,
  type RecentRequest,
  type ReportFileType,
  type ReportPathField,
  type ReportSummary,
  type RequestStatus,
  type RequestSummary,
  SUMMARY_YEAR_MIN,
} from '@homereport/contracts';
import {
  AppError,
  type OutboxEntry,
  badRequest,
  businessMetrics,
  conflict,
  notFound,
  unavailableDependency,
} from '@homereport/kit';
import { requestCovered, requestStatusChanged, requestSubmitted } from '../events/published.js';
import { cleanAddress, optionalText } from './address.js';
import type {
  ActivityStore,
  CountDelta,
  CoveredGeneration,
  FileRef,
  LinkSigner,
  Person,
  PropertyRecord,
  PropertyStore,
  ReportFiles,
  RequestRecord,
  RequestStore,
  SearchIndex,
  StatsStore,
} from './ports.js';
import { WORD_RANGES_PER_READ } from './ports.js';
import { propertyKey, zipOfKey } from './property-key.js';
import {
  LONG_WORD_MESSAGE,
  addressTerms,
  coveredTerms,
  hasOverlongWord,
  publicQueryTerms,
  queryTerms,
  statusTerm,
  zipTerm,
} from './search-terms.js';

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
/** Ranges of 1,000 places the public search reads first: a word of one address in a hundred fills a page there. */
const FIRST_SEARCH_RANGES = 4;
/** Ranges one public search call reads at most: as many as SEARCH_ROUNDS reads of 32 did. */
const SEARCH_RANGES_PER_CALL = SEARCH_ROUNDS * WORD_RANGES_PER_READ;
/** Rounds of posting reads gathering the matches of a public search ordered by city. */
const CITY_SEARCH_ROUNDS = 8;
/** Matches of a public search ordered by city that are sorted (the rest are not offered). */
const CITY_SEARCH_MAX = 2000;
/** The pending mark of a follower's status change (see applyStatusChange), by its event's id. */
export const followerMark = (eventId: string) => `follower:${eventId}`;
/** Who covers a request that joins a property already covered: the property's report, not a person. */
export const SYSTEM: Person = { userId: 'system', email: 'system@homereport.invalid' };

export const STATUS_COUNTER: Record<RequestStatus, keyof CountDelta> = {
  requested: 'requested',
  in_progress: 'in_progress',
  covered: 'covered',
};

const STATUS_RANK: Record<RequestStatus, number> = { requested: 0, in_progress: 1, covered: 2 };

/** The same files, marked as shared between requests for one address. */
function sharedFiles(files: ReportFiles): ReportFiles {
  return Object.fromEntries(Object.entries(files).map(([type, file]) => [type, { ...file, shared: true }]));
}

/** A wait said in words: "1 minute", "12 minutes". */
const waitMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

export const Messages = {
  blankAddress: 'Please enter the property address.',
  badUrl: 'The listing URL must be a web address starting with http:// or https://.',
  notFound: 'Request not found.',
  tooManyAnonymous:
    'You have sent several requests in a short time. Please wait before sending another, or sign in to request more properties.',
  tooManyForAccount: (perHour: number, waitSeconds: number) =>
    `You have asked for ${perHour} properties in the past hour, the most an account may. Please try again in ${waitMinutes(waitSeconds)}.`,
  reportFileMissing: 'Upload the main report file before marking this request Covered.',
  longWord: LONG_WORD_MESSAGE,
  reportNotFound: 'Report not found. It does not exist or is not completed yet.',
} as const;

/**
 * A request as the API shows it: file links only when a signer is given (never in public lists),
 * the requester's notes only to the requester and admins (`withNotes`), `null` to everyone else.
 * With its property (null: none found), the property's headline figures and ZIP code, which are
 * the same for every request of it (decision 024).
 */
export function toApi(
  record: RequestRecord,
  signer: LinkSigner | null,
  { withNotes }: { withNotes: boolean },
  property?: PropertyRecord | null,
): CoverageRequest {
  const link = (type: ReportFileType) => {
    const file = record.files[type];
    return signer && file ? signer.sign(file.key) : null;
  };
  return {
    id: record.id,
    address: record.address,
    property_id: record.propertyId,
    url: record.url,
    notes: withNotes ? record.notes : null,
    status: record.status,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
    ...(Object.fromEntries(REPORT_FILE_TYPES.map((type) => [`${type}_path`, link(type)])) as Record<
      ReportPathField,
      string | null
    >),
    ...(property === undefined ? {} : propertyFields(record, property)),
  };
}

/** What a request shows of its property: the report's figures and the ZIP code of its normalised address. */
function propertyFields(record: RequestRecord, property: PropertyRecord | null) {
  return { summary: property?.summary ?? null, zip_code: zipOfKey(property?.key ?? record.addressKey) };
}

/** The year a report's "year built" may be at most: next year, by the date now. */
export const latestYearBuilt = (now: Date) => now.getUTCFullYear() + 1;

/**
 * The figures as stored: the headline trimmed, and left out when blank; null when nothing is
 * left (an empty object clears them). The ranges are the schema's (kit's app.ts words them), but
 * for "at most next year", which moves with the date.
 */
export function cleanSummary(input: ReportSummary, now: Date): ReportSummary | null {
  const latest = latestYearBuilt(now);
  if (input.year_built !== undefined && input.year_built > latest) {
    const message = `must be a whole number from ${SUMMARY_YEAR_MIN} to ${latest}`;
    throw new AppError(400, 'VALIDATION', `year_built: ${message}`, {
      details: [{ field: 'year_built', message }],
    });
  }
  const { headline: typed, ...figures } = input;
  const headline = typed?.replace(/\s+/gu, ' ').trim();
  const summary: ReportSummary = headline ? { ...figures, headline } : figures;
  return Object.keys(summary).length === 0 ? null : summary;
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
  properties: PropertyStore;
  stats: StatsStore;
  activity: ActivityStore;
  search: SearchIndex;
  /** The public search's posting lists, over covered properties' places in the covered list. */
  coveredSearch: SearchIndex;
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

  /**
   * A new request joins its address's property. The caller's own earlier request for the property
   * in the duplicate window is answered instead (`created: false`): nothing new is stored.
   */
  async submit(
    input: { address: string; url?: string; notes?: string },
    requester: Person | null,
    correlationId: string,
  ): Promise<CreateRequestReply & { created: boolean }> {
    const address = cleanAddress(input.address);
    if (address.length === 0) throw badRequest(Messages.blankAddress);
    const url = listingUrl(input.url);
    const notes = optionalText(input.notes);
    const key = propertyKey(address);
    const now = this.now();
    const property = await this.deps.properties.claim(key, address, now);
    const earlier = await this.ownEarlierRequest(property, requester, now);
    if (earlier) return { request: toApi(earlier, null, OWNER, property), duplicate_of: earlier.id, created: false };

    const id = this.deps.requests.newId();
    const record: RequestRecord = {
      id,
      seq: 0, // given by the store on insert
      address,
      addressKey: key,
      propertyId: property.id,
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
      { id, address, addressKey: key, propertyId: property.id, url, notes, created_at: now, requester },
      [event],
      event.id,
    );
    businessMetrics.requestSubmitted(requester !== null);
    // The request is stored with its event: it is accepted. If a dependency fails the follow-up
    // steps now, the consumer of request-submitted finishes them (the document stays pending).
    const joined = await this.afterSubmit(stored, event.id).catch((err: unknown) => {
      if (!unavailableDependency(err)) throw err;
      return false;
    });
    // Joined a covered property: covered at once, with its files.
    const shown = joined ? ((await this.deps.requests.find(id)) ?? stored) : stored;
    return { request: toApi(shown, null, OWNER, property), created: true };
  }

  /**
   * The caller's own request for this property in the duplicate window, if any (any of theirs, not
   * only the latest of the property). Anyone else's (or any, to an anonymous caller) is never
   * told: it would tell a stranger that someone asked about this address.
   */
  private async ownEarlierRequest(
    property: PropertyRecord,
    requester: Person | null,
    now: Date,
  ): Promise<RequestRecord | null> {
    if (!requester) return null;
    const mine = property.requests
      .filter((e) => e.user === requester.userId && now.getTime() - e.at.getTime() < DUPLICATE_WINDOW_MS)
      .sort((a, b) => b.at.getTime() - a.at.getTime());
    if (mine.length === 0) return null;
    const records = await this.deps.requests.findMany(mine.map((e) => e.id));
    return records.sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0] ?? null;
  }

  /**
   * What follows a submission: counters, the requester's list, the address index. Each step is
   * idempotent, so the consumer of our own request-submitted may repeat them after a crash.
   */
  async afterSubmit(submitted: RequestRecord, effectId: string): Promise<boolean> {
    const record = submitted.propertyId ? submitted : await this.fileUnderProperty(submitted);
    const requester = record.requester;
    const entry = { id: record.id, user: requester?.userId ?? null, at: record.created_at };
    const [property] = await Promise.all([
      this.deps.properties.addRequest(record.propertyId, entry),
      this.deps.stats.applyRequestDelta(effectId, { total: 1, requested: 1 }),
      requester ? this.deps.activity.addRequest(requester.userId, record.id) : undefined,
      this.deps.search.add(record.seq, [...addressTerms(record.address), statusTerm('requested')]),
    ]);
    // The property's first request counts it (a repeat of this effect sees only itself, and the
    // counter's effect id keeps it to once).
    if (property?.requests.every((e) => e.id === record.id)) {
      await this.deps.stats.applyRequestDelta(`property:${property.id}`, { properties: 1 });
    }
    let joined = false;
    if (property?.report && record.status !== 'covered') {
      await this.coverOpenRequests(record.propertyId, property.report, SYSTEM, effectId);
      joined = true;
    }
    await this.deps.requests.clearPending(record.id, effectId);
    return joined;
  }

  async changeStatus(id: string, to: RequestStatus, by: Person, correlationId: string): Promise<CoverageRequest> {
    const record = await this.applyStatusChange(id, to, by, correlationId);
    return toApi(record, this.deps.signer, OWNER, await this.propertyOf(record));
  }

  /**
   * The change and its effects; a follower (a request covered because its property was) is
   * announced only when `announce`, and its change moves nothing else: neither its property in
   * the covered list nor the property's other requests.
   */
  private async applyStatusChange(
    id: string,
    to: RequestStatus,
    by: Person,
    correlationId: string,
    { announce = true, followers = true }: { announce?: boolean; followers?: boolean } = {},
  ): Promise<RequestRecord> {
    const current = await this.deps.requests.find(id);
    if (!current) throw notFound(Messages.notFound);
    if (current.status === to) return current;
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
    // A follower's mark says so: the consumer that finishes a change this process did not (our
    // own event, events/consumers.ts) then finishes it as a follower's.
    const mark = followers ? changed.id : followerMark(changed.id);
    const result = await this.deps.requests.changeStatus(id, change, events, mark);
    if (!result) throw notFound(Messages.notFound);
    if (to === 'covered' && result.previous !== 'covered' && followers) businessMetrics.reportCovered();
    // The counters move from the status the request really had (another admin may have changed
    // it between our read and our write; the history and event then name the one we read).
    await this.afterStatusChange(id, mark, result.previous, to, followers ? { by, correlationId } : null);
    return result.after;
  }

  /** The property a request belongs to; null for one stored before properties (or a property gone). */
  private propertyOf(record: RequestRecord): Promise<PropertyRecord | null> {
    return record.propertyId ? this.deps.properties.find(record.propertyId) : Promise.resolve(null);
  }

  /**
   * Replaces the report's headline figures (api.md "Report summary"). They are the property's:
   * every request of it shows them, the covered list's entry included (decision 024).
   */
  async setSummary(id: string, input: ReportSummary): Promise<CoverageRequest> {
    const summary = cleanSummary(input, this.now());
    const found = await this.deps.requests.find(id);
    if (!found) throw notFound(Messages.notFound);
    const record = found.propertyId ? found : await this.fileUnderProperty(found);
    const property = await this.deps.properties.setSummary(record.propertyId, summary);
    if (!property) throw notFound(Messages.notFound);
    // The covered list's entries carry the figures: a kept first page goes.
    if (property.report !== null) await this.invalidateCovered();
    return { ...toApi(record, this.deps.signer, OWNER, property), ...counts(property) };
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
    if (record) {
      await this.deps.search.setStatus(record.seq, record.status);
      await this.followProperty(record, followers !== null);
    }
    if (to === 'covered' && followers && record) {
      await this.coverOpenRequests(record.propertyId, id, followers.by, followers.correlationId);
    }
    if (from === 'covered' || to === 'covered') await this.invalidateCovered();
    await this.deps.requests.clearPending(id, effectId);
  }

  /** A request stored before properties (by an older version of this service) joins its property. */
  private async fileUnderProperty(record: RequestRecord): Promise<RequestRecord> {
    const property = await this.deps.properties.claim(propertyKey(record.address), record.address, record.created_at);
    await this.deps.requests.setProperty(record.id, property.id, property.key);
    return { ...record, propertyId: property.id, addressKey: property.key };
  }

  /**
   * The property follows its requests: a request covered by an admin (`primary`) puts the property
   * at the top of the covered list with its files, as does any covered request of a property not
   * covered yet; the request standing for a property leaving covered hands over to another covered
   * request of it, or the property leaves the list.
   */
  private async followProperty(record: RequestRecord, primary: boolean): Promise<void> {
    const property = record.propertyId ? await this.deps.properties.find(record.propertyId) : null;
    if (!property) return;
    if (record.status === 'covered' && record.files.report) {
      if (primary || property.report === null) {
        const place = await this.deps.properties.cover(property.id, record.id, property.address);
        await this.deps.coveredSearch.add(place, coveredTerms(property.address, zipOfKey(property.key)));
      }
      return;
    }
    if (property.report !== record.id) return;
    const others = await this.deps.requests.findMany(property.requests.map((e) => e.id));
    const standIn = others.find((r) => r.id !== record.id && r.status === 'covered' && r.files.report);
    if (standIn) await this.deps.properties.standIn(property.id, standIn.id);
    else await this.deps.properties.uncover(property.id);
  }

  /**
   * Covering one request covers the property: its open requests become covered with the report
   * request's files. Each requester hears once, even one who asked twice (and each request's ready
   * event has a fixed id, so a racing run repeats it, not adds). The files are marked shared on
   * every request, so replacing one request's file later does not delete the object the others read.
   */
  async coverOpenRequests(propertyId: string, reportId: string, by: Person, correlationId: string): Promise<number> {
    const property = await this.deps.properties.find(propertyId);
    const original = await this.deps.requests.find(reportId);
    if (!property || !original || original.status !== 'covered' || !original.files.report) return 0;
    const siblings = await this.deps.requests.findMany(
      property.requests.map((e) => e.id).filter((id) => id !== original.id),
    );
    const open = siblings
      .filter((record) => record.status !== 'covered')
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    if (open.length === 0) return 0;
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
      await this.applyStatusChange(record.id, 'covered', by, correlationId, { announce, followers: false });
    }
    return open.length;
  }

  /** Called by the files service once new objects are stored; answers with the replaced files. */
  async recordFiles(id: string, files: ReportFiles): Promise<{ request: CoverageRequest; replaced: FileRef[] }> {
    const result = await this.deps.requests.setFiles(id, files, this.now());
    if (!result) throw notFound(Messages.notFound);
    if (result.after.status === 'covered') await this.invalidateCovered();
    // A shared file is still another request's: it stays in storage.
    const replaced = result.replaced.filter((file) => !file.shared);
    return { request: toApi(result.after, this.deps.signer, OWNER, await this.propertyOf(result.after)), replaced };
  }

  /**
   * Public: one entry per covered property, most recently covered first, without file links,
   * serialized. The first page (what everyone sees) is named with the generation it was read in,
   * so the gateway may keep it until the next change (decision 008): the service keeps no copy.
   */
  async covered(
    limit: number,
    cursor: number | null,
  ): Promise<{ body: string; generation?: { key: string; value: string } }> {
    // Read before the page, never after: a change landing between the two then bumps past this
    // generation, so the gateway drops the page instead of keeping an old page under a new name.
    const generation = cursor === null && limit === COVERED_PAGE_DEFAULT ? await this.currentGeneration() : undefined;
    const page = await this.coveredPage(limit, cursor);
    const body = JSON.stringify(page);
    return generation === undefined
      ? { body }
      : { body, generation: { key: this.deps.generation.key, value: generation } };
  }

  /** Covered properties by their place in the list, newest first, from `cursor` (a place) down. */
  private async coveredPage(limit: number, cursor: number | null) {
    let next = cursor ?? (await this.deps.properties.topCoveredSeq());
    const found: PropertyRecord[] = [];
    // Places of properties that left the list, or moved up, are gaps: read windows of places (by
    // the unique coveredSeq index) until the page is full, bounded in rounds.
    for (let round = 0; found.length < limit && next > 0 && round < COVERED_ROUNDS; round++) {
      const places = range(next, (limit - found.length) * 2 + 8);
      found.push(...(await this.deps.properties.byCoveredSeqs(places)));
      next -= places.length;
    }
    const items = found.slice(0, limit);
    const last = items[items.length - 1];
    const after = found.length > limit && last?.coveredSeq ? last.coveredSeq - 1 : next;
    return { properties: await this.entries(items), next_cursor: after > 0 ? String(after) : null };
  }

  /** The covered list's entries: each property's report request, with how many requests it had. */
  private async entries(properties: PropertyRecord[]): Promise<CoverageRequest[]> {
    const reports = await this.deps.requests.findMany(properties.flatMap((p) => (p.report ? [p.report] : [])));
    const byId = new Map(reports.map((r) => [r.id, r]));
    return properties.flatMap((property) => {
      const record = property.report ? byId.get(property.report) : undefined;
      // Left covered a moment ago (the property follows its request right after): not offered.
      if (!record || record.status !== 'covered' || !record.files.report) return [];
      return [{ ...toApi(record, null, PUBLIC, property), requests_count: property.requests.length }];
    });
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
   * Public search of covered properties: every word of `q` the beginning of a word of the address
   * ("aus" finds Austin), through the posting lists of covered properties (the admin search's
   * mechanism): nothing held in this process grows with the number of properties. Newest covered
   * first, the cursor a place in the covered list; or by city, the cursor an offset.
   */
  async searchCovered(query: {
    q?: string;
    sort: 'newest' | 'city';
    limit: number;
    cursor: number | null;
    /** Only the properties of this ZIP code: its own posting list, beside the words'. */
    zip?: string;
  }): Promise<{ properties: CoverageRequest[]; next_cursor: string | null }> {
    if (hasOverlongWord(query.q)) throw badRequest(Messages.longWord);
    const terms = [...publicQueryTerms(query.q), ...(query.zip ? [zipTerm(query.zip)] : [])];
    if (query.sort === 'city') {
      const offset = query.cursor ?? 0;
      const seqs = terms.length === 0 ? null : await this.allMatching(terms);
      // One more than the page tells whether another page follows.
      const found = await this.deps.properties.byCity(seqs, offset, query.limit + 1);
      const page = found.slice(0, query.limit);
      return {
        properties: await this.entries(page),
        next_cursor: found.length > query.limit ? String(offset + page.length) : null,
      };
    }
    if (terms.length === 0) return this.coveredPage(query.limit, query.cursor);
    const found: PropertyRecord[] = [];
    let atMost = query.cursor ?? (await this.deps.properties.topCoveredSeq());
    // Bounded work per call, as the admin search: a rare word answers a short page and a cursor.
    // The lists are read from the newest place down, a few ranges first and more as the matches
    // found so far say are needed, so a common word reads the few ranges that fill its page
    // rather than 32 of them (each range of each word is a document the database reads).
    let ranges = FIRST_SEARCH_RANGES;
    let read = 0;
    let matched = 0;
    while (read < SEARCH_RANGES_PER_CALL && atMost > 0 && found.length < query.limit) {
      const count = Math.min(ranges, SEARCH_RANGES_PER_CALL - read);
      const { seqs, below } = await this.deps.coveredSearch.matching(terms, atMost, count);
      read += count;
      matched += seqs.length;
      for (let i = 0; i < seqs.length && found.length < query.limit; i += query.limit) {
        const batch = seqs.slice(i, i + query.limit);
        // A place whose property moved up or left the list finds nothing: skipped.
        for (const property of await this.deps.properties.byCoveredSeqs(batch)) {
          if (found.length < query.limit) found.push(property);
        }
        const last = found.length >= query.limit ? found[found.length - 1]?.coveredSeq : batch[batch.length - 1];
        atMost = Math.min(atMost, (last ?? atMost) - 1);
      }
      if (found.length < query.limit) atMost = below;
      ranges = nextSearchRanges(ranges, read, matched, query.limit - found.length);
    }
    return { properties: await this.entries(found), next_cursor: atMost > 0 ? String(atMost) : null };
  }

  /** Every place holding all the terms, newest first, as far as a bounded read goes. */
  private async allMatching(terms: string[]): Promise<number[]> {
    const out: number[] = [];
    let atMost = await this.deps.properties.topCoveredSeq();
    for (let round = 0; round < CITY_SEARCH_ROUNDS && atMost > 0 && out.length < CITY_SEARCH_MAX; round++) {
      const { seqs, below } = await this.deps.coveredSearch.matching(terms, atMost);
      out.push(...seqs);
      atMost = below;
    }
    return out.slice(0, CITY_SEARCH_MAX);
  }

  /**
   * The admin's full request list, newest first: every word of `q` a whole word of the address,
   * and the status when given. The cursor is the creation sequence number to go on from.
   */
  async adminList(query: {
    q?: string;
    status?: RequestStatus;
    property_id?: string;
    limit: number;
    cursor: number | null;
  }): Promise<{ requests: CoverageRequest[]; next_cursor: string | null }> {
    if (hasOverlongWord(query.q)) throw badRequest(Messages.longWord);
    if (query.property_id !== undefined) return this.propertyRequests(query.property_id, query.status);
    const top = query.cursor ?? (await this.deps.requests.topSeq());
    const terms = [...queryTerms(query.q), ...(query.status ? [statusTerm(query.status)] : [])];
    const page = (records: RequestRecord[]) => this.withCounts(records);
    if (terms.length === 0) {
      const records = await this.deps.requests.newest(query.limit, top);
      const last = records[records.length - 1];
      return { requests: await page(records), next_cursor: last && last.seq > 1 ? String(last.seq - 1) : null };
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
    return { requests: await page(found), next_cursor: atMost > 0 ? String(atMost) : null };
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

  /** The requests of one property, newest first (a handful: one page). */
  private async propertyRequests(propertyId: string, status: RequestStatus | undefined) {
    const property = await this.deps.properties.find(propertyId);
    const records = property ? await this.deps.requests.findMany(property.requests.map((e) => e.id)) : [];
    const shown = records
      .filter((r) => !status || r.status === status)
      .sort((a, b) => b.seq - a.seq)
      .map((r) => ({ ...toApi(r, null, OWNER, property), ...counts(property) }));
    return { requests: shown, next_cursor: null };
  }

  /** Requests as the admin's lists show them: with how many requests their property had. */
  private async withCounts(records: RequestRecord[]): Promise<CoverageRequest[]> {
    const properties = await this.deps.properties.findMany(
      records.flatMap((r) => (r.propertyId ? [r.propertyId] : [])),
    );
    const byId = new Map(properties.map((p) => [p.id, p]));
    return records.map((r) => {
      const property = byId.get(r.propertyId) ?? null;
      return { ...toApi(r, null, OWNER, property), ...counts(property) };
    });
  }

  async forAdmin(id: string): Promise<CoverageRequest> {
    const record = await this.deps.requests.find(id);
    if (!record) throw notFound(Messages.notFound);
    const property = record.propertyId ? await this.deps.properties.find(record.propertyId) : null;
    return { ...toApi(record, this.deps.signer, OWNER, property), ...counts(property) };
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
      const unit = record.propertyId || record.addressKey;
      const kept = shown.get(unit);
      if (!kept || STATUS_RANK[record.status] > STATUS_RANK[kept.status]) shown.set(unit, record);
    }
    const records = [...shown.values()].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    const properties = await this.deps.properties.findMany(
      records.flatMap((r) => (r.propertyId ? [r.propertyId] : [])),
    );
    const byProperty = new Map(properties.map((p) => [p.id, p]));
    return records.map((record) => toApi(record, null, OWNER, byProperty.get(record.propertyId) ?? null));
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
      properties: requests.properties,
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

/** How many requests a property had and from how many people (an anonymous request is one person). */
function counts(property: PropertyRecord | null): { requests_count: number; requesters_count: number } {
  if (!property || property.requests.length === 0) return { requests_count: 1, requesters_count: 1 };
  const people = new Set(property.requests.map((e) => e.user ?? `anonymous:${e.id}`));
  return { requests_count: property.requests.length, requesters_count: people.size };
}

/** Rounds of reads of the covered list per page. */
const COVERED_ROUNDS = 20;

/**
 * How many ranges the public search reads next: what the matches so far (`matched` in `read`
 * ranges) say the `wanted` rest of the page needs, with half again for gaps; at least twice the
 * last read, so a rare word reaches the call's bound in a few reads; none found, the most.
 */
function nextSearchRanges(last: number, read: number, matched: number, wanted: number): number {
  if (matched === 0) return WORD_RANGES_PER_READ;
  const estimate = Math.ceil((read * wanted * 1.5) / matched);
  return Math.min(WORD_RANGES_PER_READ, Math.max(last * 2, estimate));
}

/** [top, top-1, ..., top-count+1], stopping at 1. */
function range(top: number, count: number): number[] {
  const out: number[] = [];
  for (let n = top; n > 0 && out.length < count; n--) out.push(n);
  return out;
}
