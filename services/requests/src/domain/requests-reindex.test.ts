import { describe, expect, it } from 'vitest';
import type { RequestRecord } from './ports.js';
import { Requests, type RequestsDeps } from './requests.js';

const record = (seq: number, address: string, status: RequestRecord['status']) =>
  ({ id: `r${seq}`, seq, address, status }) as RequestRecord;

describe('indexEarlierRequests', () => {
  it('files every request from where the last run stopped, by words and status, and saves its progress', async () => {
    const stored = [
      record(1, '1 Elm St, Austin, TX', 'covered'),
      record(2, '2 Oak Ave, Boise, ID', 'requested'),
      record(4, '4 Pine Rd, Reno, NV', 'in_progress'),
    ];
    const filed: [number, string[]][] = [];
    const saved: number[] = [];
    const requests = new Requests({
      requests: {
        topSeq: async () => 4,
        findBySeqs: async (seqs: number[]) => stored.filter((r) => seqs.includes(r.seq)),
      },
      search: { add: async (seq: number, terms: string[]) => void filed.push([seq, terms]) },
    } as unknown as RequestsDeps);

    await requests.indexEarlierRequests({
      read: async () => 1,
      save: async (seq) => void saved.push(seq),
      until: async (top) => top,
    });
    expect(filed).toEqual([
      [2, ['2', 'oak', 'ave', 'boise', 'id', '~status:requested']],
      [4, ['4', 'pine', 'rd', 'reno', 'nv', '~status:in_progress']],
    ]);
    expect(saved).toEqual([4]);
  });

  it('reads no request made after the first run began: those were filed at submission', async () => {
    // A service that filed 2 earlier requests at its first start, then took 5,000 more requests
    // (each filed by its submission) and restarts: without the bound it re-read all 5,000, 500 at
    // a time, and kept the memory of that pass (README, "Memory").
    let top = 2;
    const read: number[][] = [];
    const requests = new Requests({
      requests: {
        topSeq: async () => top,
        findBySeqs: async (seqs: number[]) => {
          read.push(seqs);
          return seqs.map((seq) => record(seq, `${seq} Elm St, Austin, TX`, 'requested'));
        },
      },
      search: { add: async () => undefined },
    } as unknown as RequestsDeps);
    // As SearchPostings.progress keeps them: `until` set by the first call, then kept.
    let indexed = 0;
    let bound: number | null = null;
    const progress = {
      read: async () => indexed,
      save: async (seq: number) => {
        indexed = Math.max(indexed, seq);
      },
      until: async (newest: number) => {
        bound ??= newest;
        return bound;
      },
    };
    await requests.indexEarlierRequests(progress);
    expect(read.flat()).toEqual([1, 2]);
    top = 5_002;
    await requests.indexEarlierRequests(progress);
    expect(read.flat()).toEqual([1, 2]);
  });
});
