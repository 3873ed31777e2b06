import type { RequestStatus } from '@homereport/contracts';
import { againOnDuplicate, isDuplicateKey } from '@homereport/kit';
import type { Collection } from 'mongodb';
import { type SearchIndex, WORD_RANGES_PER_READ } from '../domain/ports.js';
import { statusTerm } from '../domain/search-terms.js';
import type { Collections, PostingDoc } from './collections.js';

/** Sequence numbers per posting document (see PostingDoc). */
export const POSTING_RANGE = 1000;
/** Ranges of a status list read per round trip. */
const RANGES_PER_READ = 8;
/** Requests the words leave that are checked on their documents rather than against a status list. */
const FEW_ENOUGH_TO_CHECK = 200;

function rangesFrom(atMost: number, count: number): number[] {
  const ranges: number[] = [];
  for (let r = Math.floor(atMost / POSTING_RANGE); r >= 0 && ranges.length < count; r--) ranges.push(r);
  return ranges;
}

const count = (found: Map<number, number[]>) => [...found.values()].reduce((n, seqs) => n + seqs.length, 0);

const STATUSES: RequestStatus[] = ['requested', 'in_progress', 'covered'];

const postingId = (term: string, range: number) => `${term}#${range}`;

/**
 * Posting lists (collections.ts, PostingDoc): the admin search's over requests' `seq` (the default),
 * and the public search's over covered properties' `coveredSeq` (`c.coveredPostings`).
 */
export class SearchPostings implements SearchIndex {
  private readonly postings: Collection<PostingDoc>;

  constructor(
    private readonly c: Collections,
    postings?: Collection<PostingDoc>,
  ) {
    this.postings = postings ?? c.postings;
  }

  /** Idempotent ($addToSet): a repeated effect adds nothing. */
  async add(seq: number, terms: string[]): Promise<void> {
    if (terms.length === 0) return;
    const range = Math.floor(seq / POSTING_RANGE);
    const write = () =>
      this.postings.bulkWrite(
        terms.map((term) => ({
          updateOne: { filter: { _id: postingId(term, range) }, update: { $addToSet: { seqs: seq } }, upsert: true },
        })),
        { ordered: false },
      );
    // Two requests creating one posting document at once: the loser's upsert fails; again is an update.
    await againOnDuplicate(write);
  }

  async setStatus(seq: number, status: RequestStatus): Promise<void> {
    const range = Math.floor(seq / POSTING_RANGE);
    const write = () =>
      this.postings.bulkWrite(
        STATUSES.map((s) =>
          s === status
            ? {
                updateOne: {
                  filter: { _id: postingId(statusTerm(s), range) },
                  update: { $addToSet: { seqs: seq } },
                  upsert: true,
                },
              }
            : { updateOne: { filter: { _id: postingId(statusTerm(s), range) }, update: { $pull: { seqs: seq } } } },
        ),
        { ordered: false },
      );
    await againOnDuplicate(write);
  }

  /**
   * How far indexEarlierRequests got: a counter document, moved only forward; and where it stops
   * (`until`): the newest request when a service first filed earlier requests, kept from then on.
   * Every later request is filed by its own submission (or by the consumer of its
   * request-submitted, after an outage), so a start never reads them again: without the bound
   * each start re-read every request made since the previous one, 500 at a time, and the process
   * kept the memory of that pass (bench figures in the README, "Memory").
   */
  readonly progress = {
    read: async () => (await this.c.counters.findOne({ _id: 'search-indexed' }))?.value ?? 0,
    until: async (top: number) => {
      const bound = () =>
        this.c.counters.findOneAndUpdate(
          { _id: 'search-indexed-until' },
          { $setOnInsert: { value: top } },
          { upsert: true, returnDocument: 'after' },
        );
      // Another replica set it a moment earlier: theirs holds.
      const doc = await againOnDuplicate(bound);
      return doc?.value ?? top;
    },
    save: async (seq: number) => {
      const save = (upsert: boolean) =>
        this.c.counters.updateOne({ _id: 'search-indexed' }, { $max: { value: seq } }, { upsert });
      // Another replica created it a moment earlier: move theirs.
      await save(true).catch((err) => (isDuplicateKey(err) ? save(false) : Promise.reject(err)));
    },
  };

  async matching(terms: string[], atMost: number, wordRanges?: number): Promise<{ seqs: number[]; below: number }> {
    const words = terms.filter((term) => !term.startsWith('~'));
    const statuses = terms.filter((term) => term.startsWith('~'));
    // A status list holds a good share of all requests: read a few ranges of it at a time. Word
    // lists are short: read many ranges in one round trip, and when the words alone leave few
    // requests, hand those over (the caller checks each one's status on its document) rather
    // than reading the long status lists at all.
    const ranges = rangesFrom(atMost, words.length > 0 ? (wordRanges ?? WORD_RANGES_PER_READ) : RANGES_PER_READ);
    let found = await this.intersect(words.length > 0 ? words : statuses, ranges, atMost);
    if (words.length > 0 && statuses.length > 0 && count(found) > FEW_ENOUGH_TO_CHECK) {
      const hit = ranges.filter((r) => found.get(r)?.length);
      const inStatus = await this.intersect(statuses, hit, atMost);
      found = new Map(
        hit.map((r) => {
          const keep = new Set(inStatus.get(r));
          return [r, (found.get(r) ?? []).filter((seq) => keep.has(seq))];
        }),
      );
    }
    const last = ranges[ranges.length - 1] ?? 0;
    return { seqs: [...found.values()].flat().sort((a, b) => b - a), below: last * POSTING_RANGE - 1 };
  }

  /** Per range, the requests at or below `atMost` holding every term: the intersection of their lists. */
  private async intersect(terms: string[], ranges: number[], atMost: number): Promise<Map<number, number[]>> {
    const ids = terms.flatMap((term) => ranges.map((r) => postingId(term, r)));
    const docs = ids.length > 0 ? await this.postings.find({ _id: { $in: ids } }).toArray() : [];
    const byId = new Map(docs.map((d) => [d._id, d.seqs]));
    const out = new Map<number, number[]>();
    for (const r of ranges) {
      const [head, ...rest] = terms.map((term) => new Set(byId.get(postingId(term, r)) ?? []));
      out.set(
        r,
        [...(head ?? [])].filter((seq) => seq <= atMost && rest.every((set) => set.has(seq))),
      );
    }
    return out;
  }
}
