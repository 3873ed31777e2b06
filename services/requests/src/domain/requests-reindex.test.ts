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

    await requests.indexEarlierRequests({ read: async () => 1, save: async (seq) => void saved.push(seq) });
    expect(filed).toEqual([
      [2, ['2', 'oak', 'ave', 'boise', 'id', '~status:requested']],
      [4, ['4', 'pine', 'rd', 'reno', 'nv', '~status:in_progress']],
    ]);
    expect(saved).toEqual([4]);
  });
});
