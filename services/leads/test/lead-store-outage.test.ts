import { randomUUID } from 'node:crypto';
import { createIndexes, unavailableDependency } from '@homereport/kit';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { INDEXES } from '../src/data/indexes.js';
import { LeadsRepository } from '../src/data/leads-repository.js';
import { readInboundLead } from '../src/domain/inbound-lead.js';

// A lead whose store timed out, and whose check afterwards (was it stored?) timed out too, is in
// doubt: its caller must get the MongoDB outage (a 503 with Retry-After), not a 500. The real
// repository on the real server, with the leads collection failing as a MongoDB that stopped
// answering does (the driver's MongoOperationTimeoutError).
let mongo: MongoClient;
let db: Db;

beforeAll(async () => {
  mongo = await new MongoClient(testEnv().mongoUrl).connect();
  db = mongo.db('leads_outage_test');
  await createIndexes(db, INDEXES);
  await new LeadsRepository(db, null).prepare();
});
afterAll(async () => {
  await mongo?.close();
});

/** `db`, except that every call on its leads collection fails with a MongoDB timeout. */
function withLeadsTimingOut(real: Db): Db {
  const timedOut = () =>
    Promise.reject(
      Object.assign(new Error('Timed out during socket read (test)'), { name: 'MongoOperationTimeoutError' }),
    );
  return new Proxy(real, {
    get(target, prop) {
      if (prop !== 'collection') {
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (name: string) => {
        const collection = target.collection(name);
        if (name !== 'leads') return collection;
        return new Proxy(collection, {
          get(c, p) {
            if (p === 'insertMany') return timedOut;
            if (p === 'find') return () => ({ toArray: timedOut });
            const value = Reflect.get(c, p, c);
            return typeof value === 'function' ? value.bind(c) : value;
          },
        });
      };
    },
  });
}

describe('a lead stored while MongoDB times out', () => {
  it('fails with an error answered as a MongoDB outage (503), not an unknown one (500)', async () => {
    const repo = new LeadsRepository(withLeadsTimingOut(db), null);
    const read = readInboundLead({ lead_id: `lead-${randomUUID()}`, first_name: 'Ann', email: 'ann@example.test' });
    if (!read.ok) throw new Error(read.message);
    const err = await repo.insert('outage-test', read.lead, new Date(), null).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/lead not stored/);
    expect(unavailableDependency(err)).toBe('mongo');
  });
});
