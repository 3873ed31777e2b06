import { describe, expect, it } from 'vitest';
import type { Collections, PostingDoc } from '../data/collections.js';
import { POSTING_RANGE, SearchPostings } from '../data/search-postings.js';
import type { PropertyRecord, RequestRecord } from './ports.js';
import { Requests, type RequestsDeps } from './requests.js';

/**
 * The public search over a covered list of `top` places, its posting lists computed from `wordsOf`
 * (the words filed at a place) by the real SearchPostings; counts the posting documents read.
 */
function coveredList(top: number, wordsOf: (place: number) => string[]) {
  const read: string[] = [];
  const postings = {
    find: (filter: { _id: { $in: string[] } }) => ({
      toArray: async () => {
        read.push(...filter._id.$in);
        return filter._id.$in.flatMap((id): PostingDoc[] => {
          const [term, range] = [id.slice(0, id.lastIndexOf('#')), Number(id.slice(id.lastIndexOf('#') + 1))];
          const seqs: number[] = [];
          for (let p = range * POSTING_RANGE; p < (range + 1) * POSTING_RANGE && p <= top; p++) {
            if (p > 0 && wordsOf(p).includes(term)) seqs.push(p);
          }
          return seqs.length > 0 ? [{ _id: id, seqs }] : [];
        });
      },
    }),
  };
  const property = (place: number): PropertyRecord => ({
    id: `p${place}`,
    key: `${place}|elm|st|austin|tx|78701`,
    address: `${place} ${wordsOf(place).join(' ')}`,
    requests: [{ id: `r${place}`, user: null, at: new Date(0) }],
    report: `r${place}`,
    coveredSeq: place,
    summary: null,
  });
  const record = (id: string): RequestRecord => ({
    id,
    seq: Number(id.slice(1)),
    address: `address of ${id}`,
    addressKey: 'k',
    propertyId: `p${id.slice(1)}`,
    url: null,
    notes: null,
    status: 'covered',
    created_at: new Date(0),
    updated_at: new Date(0),
    completed_at: new Date(0),
    requester: null,
    files: {
      report: {
        key: `${id}/report`,
        name: 'report.pdf',
        contentType: 'application/pdf',
        size: 1,
        uploaded_at: new Date(0),
      },
    },
    pending: [],
  });
  const requests = new Requests({
    coveredSearch: new SearchPostings({} as Collections, postings as unknown as Collections['coveredPostings']),
    properties: {
      topCoveredSeq: async () => top,
      byCoveredSeqs: async (seqs: number[]) => [...seqs].sort((a, b) => b - a).map(property),
    },
    requests: { findMany: async (ids: string[]) => ids.map(record) },
  } as unknown as RequestsDeps);
  return { requests, read };
}

/** Every page of a search, following next_cursor; the places found and how many calls it took. */
async function allPages(requests: Requests, q: string) {
  const places: number[] = [];
  let cursor: number | null = null;
  let calls = 0;
  do {
    const page = await requests.searchCovered({ q, sort: 'newest', limit: 24, cursor });
    places.push(...page.properties.map((p) => Number(p.id.slice(1))));
    cursor = page.next_cursor === null ? null : Number(page.next_cursor);
    calls++;
  } while (cursor !== null);
  return { places, calls };
}

describe('the public search reading the posting lists of a large covered list', () => {
  // 50,000 places: "elm" at one in a hundred, "austin" at one in twenty, "rare" at two places.
  const wordsOf = (p: number) => [
    ...(p % 100 === 7 ? ['elm'] : []),
    ...(p % 20 === 7 ? ['austin'] : []),
    ...(p === 12 || p === 49_990 ? ['rare'] : []),
  ];
  const elm = Array.from({ length: 50_000 }, (_, i) => 50_000 - i).filter((p) => p % 100 === 7);

  it('fills the first page of a common word from a few ranges, not 32 of each word', async () => {
    const { requests, read } = coveredList(50_000, wordsOf);
    const page = await requests.searchCovered({ q: 'elm', sort: 'newest', limit: 24, cursor: null });
    expect(page.properties.map((p) => Number(p.id.slice(1)))).toEqual(elm.slice(0, 24));
    expect(page.next_cursor).toBe(String((elm[23] ?? 0) - 1));
    expect(read.length).toBeLessThanOrEqual(8);

    const { requests: again, read: readTwoWords } = coveredList(50_000, wordsOf);
    const both = await again.searchCovered({ q: 'elm austin', sort: 'newest', limit: 24, cursor: null });
    expect(both.properties.map((p) => Number(p.id.slice(1)))).toEqual(elm.slice(0, 24));
    expect(readTwoWords.length).toBeLessThanOrEqual(16);
  });

  it('pages through every match newest first, each once', async () => {
    const { requests } = coveredList(50_000, wordsOf);
    const { places } = await allPages(requests, 'elm');
    expect(places).toEqual(elm);
  });

  it('reads at most 128 ranges per call: a rare word answers a short page and a cursor', async () => {
    const { requests } = coveredList(200_000, (p) => (p === 12 || p === 199_990 ? ['rare'] : []));
    const first = await requests.searchCovered({ q: 'rare', sort: 'newest', limit: 24, cursor: null });
    expect(first.properties.map((p) => p.id)).toEqual(['r199990']);
    // 128 ranges down from range 200 (200,000 alone): the next call goes on below range 73.
    expect(first.next_cursor).toBe(String(73 * POSTING_RANGE - 1));
    const { places, calls } = await allPages(requests, 'rare');
    expect(places).toEqual([199_990, 12]);
    expect(calls).toBe(2);
  });

  it('finds a word that only the oldest places hold', async () => {
    const { requests } = coveredList(50_000, wordsOf);
    expect((await allPages(requests, 'rare')).places).toEqual([49_990, 12]);
  });
});
