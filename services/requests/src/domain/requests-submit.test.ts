import { MongoOperationTimeoutError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from './ports.js';
import { Requests, type RequestsDeps } from './requests.js';

/** A store that keeps the request (and its event) and then fails the follow-up step given. */
function requestsFailingAfterInsert(failure: Error) {
  const stored: RequestRecord[] = [];
  const requests = new Requests({
    properties: {
      claim: async () => ({ id: 'p1', key: 'k', address: 'a', requests: [], report: null, coveredSeq: null }),
      addRequest: async () => null,
    },
    activity: { addRequest: async () => undefined },
    stats: { applyRequestDelta: async () => undefined },
    search: {
      add: async () => {
        throw failure;
      },
    },
    requests: {
      newId: () => 'r1',
      insert: async (doc: Partial<RequestRecord>, _events: unknown[], eventId: string) => {
        const record = {
          ...doc,
          seq: 1,
          status: 'requested',
          files: {},
          pending: [eventId],
          updated_at: doc.created_at,
          completed_at: null,
        } as RequestRecord;
        stored.push(record);
        return record;
      },
      clearPending: async () => undefined,
    },
  } as unknown as RequestsDeps);
  return { requests, stored };
}

describe('submitting a request while a dependency fails after it is stored', () => {
  it('accepts the request and leaves it pending for the consumer to finish', async () => {
    const { requests, stored } = requestsFailingAfterInsert(
      new MongoOperationTimeoutError('Server roundtrip time is greater than the time remaining'),
    );
    const reply = await requests.submit({ address: '12 Elm St, Austin, TX 78701' }, null, 'c1');
    expect(reply.request.id).toBe('r1');
    expect(stored[0]?.pending).toHaveLength(1);
  });

  it('still fails on a bug, which a retry by the consumer would not mend', async () => {
    const { requests } = requestsFailingAfterInsert(new TypeError('terms is not iterable'));
    await expect(requests.submit({ address: '12 Elm St, Austin, TX 78701' }, null, 'c1')).rejects.toThrow(TypeError);
  });
});
