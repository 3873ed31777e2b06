import { createIndexes } from '@homereport/kit';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { INDEXES, collections, prepare } from '../src/data/collections.js';
import { SearchPostings } from '../src/data/search-postings.js';

// Where the start-up filing of earlier requests stops (SearchPostings.progress.until) is set by
// the first start and kept: a later start, after thousands of requests each filed at submission,
// reads none of them again (README, "Memory": each start used to re-read every request made since
// the previous one, and the process kept the memory of that pass). In a database of its own.
const env = testEnv();
let client: MongoClient;
let search: SearchPostings;

beforeAll(async () => {
  client = await new MongoClient(env.mongoUrl).connect();
  const db = client.db('requests_search_progress_test');
  await db.dropDatabase();
  const c = collections(db);
  await createIndexes(db, INDEXES);
  await prepare(c);
  search = new SearchPostings(c);
});
afterAll(async () => {
  await client?.close();
});

describe('the admin search filing earlier requests at start', () => {
  it('stops at the newest request of the first start, whatever a later start or a replica sees', async () => {
    expect(await search.progress.read()).toBe(0);
    // Two replicas starting at once: one bound, the first one set.
    const first = await Promise.all([search.progress.until(1_200), search.progress.until(1_250)]);
    expect(first[0]).toBe(first[1]);
    expect([1_200, 1_250]).toContain(first[0]);
    await search.progress.save(first[0]);
    expect(await search.progress.read()).toBe(first[0]);
    // 12,000 requests later, a restart files nothing.
    expect(await search.progress.until(13_250)).toBe(first[0]);
  });
});
