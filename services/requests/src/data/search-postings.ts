import type { RequestStatus } from '@homereport/contracts';
import type { SearchIndex } from '../domain/ports.js';
import { statusTerm } from '../domain/search-terms.js';
import { type Collections, isDuplicateKey } from './collections.js';

/** Sequence numbers per posting document (see PostingDoc). */
export const POSTING_RANGE = 1000;
/** Ranges read per round trip. */
const RANGES_PER_READ = 8;

const STATUSES: RequestStatus[] = ['requested', 'in_progress', 'covered'];

const postingId = (term: string, range: number) => `${term}#${range}`;

/** The admin search's posting lists (collections.ts, PostingDoc). */
export class SearchPostings implements SearchIndex {
  constructor(private readonly c: Collections) {}

  /** Idempotent ($addToSet): a repeated effect adds nothing. */
  async add(seq: number, terms: string[]): Promise<void> {
    if (terms.length === 0) return;
    const range = Math.floor(seq / POSTING_RANGE);
    const write = () =>
      this.c.postings.bulkWrite(
        terms.map((term) => ({
          updateOne: { filter: { _id: postingId(term, range) }, update: { $addToSet: { seqs: seq } }, upsert: true },
        })),
        { ordered: false },
      );
    // Two requests creating one posting document at once: the loser's upsert fails; again is an update.
    await write().catch((err) => (isDuplicateKey(err) ? write() : Promise.reject(err)));
  }

  async setStatus(seq: number, status: RequestStatus): Promise<void> {
    const range = Math.floor(seq / POSTING_RANGE);
    const write = () =>
      this.c.postings.bulkWrite(
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
    await write().catch((err) => (isDuplicateKey(err) ? write() : Promise.reject(err)));
  }

  /** How far indexEarlierRequests got: a counter document, moved only forward. */
  readonly progress = {
    read: async () => (await this.c.counters.findOne({ _id: 'search-indexed' }))?.value ?? 0,
    save: async (seq: number) => {
      const save = (upsert: boolean) =>
        this.c.counters.updateOne({ _id: 'search-indexed' }, { $max: { value: seq } }, { upsert });
      // Another replica created it a moment earlier: move theirs.
      await save(true).catch((err) => (isDuplicateKey(err) ? save(false) : Promise.reject(err)));
    },
  };

  async matching(terms: string[], atMost: number): Promise<{ seqs: number[]; below: number }> {
    const top = Math.floor(atMost / POSTING_RANGE);
    const ranges: number[] = [];
    for (let r = top; r >= 0 && ranges.length < RANGES_PER_READ; r--) ranges.push(r);
    const ids = terms.flatMap((term) => ranges.map((r) => postingId(term, r)));
    const docs = await this.c.postings.find({ _id: { $in: ids } }).toArray();
    const byId = new Map(docs.map((d) => [d._id, d.seqs]));
    const seqs: number[] = [];
    for (const r of ranges) {
      // Requests in this range holding every term: the intersection of the terms' lists.
      const [first, ...rest] = terms.map((term) => new Set(byId.get(postingId(term, r)) ?? []));
      for (const seq of first ?? []) if (seq <= atMost && rest.every((set) => set.has(seq))) seqs.push(seq);
    }
    const last = ranges[ranges.length - 1] ?? 0;
    return { seqs: seqs.sort((a, b) => b - a), below: last * POSTING_RANGE - 1 };
  }
}
