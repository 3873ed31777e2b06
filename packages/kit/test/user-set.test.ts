import { randomUUID } from 'node:crypto';
import { type Collection, type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../../test/support/env.js';
import { AppError, UserSet } from '../src/index.js';

// The one helper behind saved reports (requests) and ZIP watches (zipcodes), against the test
// run's real MongoDB-protocol server: the services' own suites check their routes on top of it.
describe('UserSet', () => {
  let client: MongoClient;
  let docs: Collection<Document>;
  const limit = { max: 3, full: 'You can keep up to 3 things.' };
  let set: UserSet;
  const user = () => `u-${randomUUID()}`;

  beforeAll(async () => {
    client = await MongoClient.connect(testEnv().mongoUrl);
    docs = client.db('kit_test').collection(`user_set_${randomUUID().slice(0, 8)}`);
    set = new UserSet(docs, 'values', limit);
  });
  afterAll(async () => {
    await docs?.drop().catch(() => undefined);
    await client?.close();
  });

  it('keeps each user’s values oldest first, each once, in one document of their own', async () => {
    const [a, b] = [user(), user()];
    expect(await set.list(a)).toEqual([]);
    await set.add(a, 'x');
    await set.add(a, 'y');
    await set.add(a, 'x');
    await set.add(b, 'z');
    expect(await set.list(a)).toEqual(['x', 'y']);
    expect(await set.list(b)).toEqual(['z']);
    expect(await docs.findOne({ _id: a as never })).toEqual({ _id: a, values: ['x', 'y'] });
  });

  it('refuses a new value past the limit with a 409 and changes nothing; a present one still passes', async () => {
    const id = user();
    for (const v of ['a', 'b', 'c']) await set.add(id, v);
    const refused = await set.add(id, 'd').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 409, message: limit.full });
    await set.add(id, 'b');
    expect(await set.list(id)).toEqual(['a', 'b', 'c']);
    // One removed makes room.
    expect(await set.remove(id, 'a')).toBe(true);
    await set.add(id, 'd');
    expect(await set.list(id)).toEqual(['b', 'c', 'd']);
  });

  it('writes the fields kept beside the set on every add, even of a value already there', async () => {
    const id = user();
    await set.add(id, 'x', { email: 'old@example.com' });
    await set.add(id, 'x', { email: 'new@example.com' });
    expect(await docs.findOne({ _id: id as never })).toEqual({ _id: id, values: ['x'], email: 'new@example.com' });
  });

  it('stores a value once when a user’s first adds race', async () => {
    const id = user();
    await Promise.all(Array.from({ length: 5 }, () => set.add(id, 'same')));
    expect(await docs.countDocuments({ _id: id as never })).toBe(1);
    expect(await set.list(id)).toEqual(['same']);
  });

  it('says whether a removed value was there, and forgets the whole document', async () => {
    const id = user();
    await set.add(id, 'x');
    expect(await set.remove(id, 'x')).toBe(true);
    expect(await set.remove(id, 'x')).toBe(false);
    expect(await set.remove(user(), 'x')).toBe(false);
    await set.add(id, 'y');
    await set.forget(id);
    expect(await docs.findOne({ _id: id as never })).toBeNull();
    expect(await set.list(id)).toEqual([]);
  });
});
