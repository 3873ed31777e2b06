import type { ZipListItem } from '@homereport/contracts';
import type { Redis } from '@homereport/kit';
import { describe, expect, it } from 'vitest';
import { GENERATION_KEY, ListIndex } from './list-index.js';

/** GET and the MULTI that bumps a generation, in memory. */
function fakeRedis() {
  const values = new Map<string, string>();
  const redis = {
    get: async (key: string) => values.get(key) ?? null,
    multi() {
      const replies: [null, unknown][] = [];
      const chain = {
        incr(key: string) {
          const next = Number(values.get(key) ?? 0) + 1;
          values.set(key, String(next));
          replies.push([null, next]);
          return chain;
        },
        publish() {
          replies.push([null, 1]);
          return chain;
        },
        exec: async () => replies,
      };
      return chain;
    },
  };
  return { values, redis: redis as unknown as Redis };
}

const item = (zipCode: string) => ({ zipCode, tier: 'TIER 2: High-Growth', location: { city: 'X', state: 'TX' } });

describe('ListIndex', () => {
  it('reads the collection once per generation, and again after any writer bumps it', async () => {
    const { values, redis } = fakeRedis();
    let stored = [item('10001')];
    let reads = 0;
    const index = new ListIndex(redis, async () => {
      reads += 1;
      return stored as unknown as ZipListItem[];
    });
    const first = await index.get();
    expect((await index.get()).etag).toBe(first.etag);
    expect(reads).toBe(1);

    // Another replica or the zip:import command imported: only the generation in Redis says so.
    stored = [item('10001'), item('10002')];
    values.set(GENERATION_KEY, '7');
    const after = await index.get();
    expect(after.index.items.map((i) => i.zipCode)).toEqual(['10001', '10002']);
    expect(after.generation).toBe('7');
    expect(after.etag).not.toBe(first.etag);
    expect(reads).toBe(2);
  });

  it('names what it read with the generation read before it, so a racing import leaves it behind', async () => {
    const { redis } = fakeRedis();
    let stored = [item('10001')];
    let raced = false;
    const index: ListIndex = new ListIndex(redis, async () => {
      const read = stored;
      if (!raced) {
        // An import lands while the collection is being read.
        raced = true;
        stored = [item('10001'), item('10002')];
        await index.invalidate();
      }
      return read as unknown as ZipListItem[];
    });
    const during = await index.get();
    expect(during.generation).toBe('0');
    // The bump is what the gateway hears: the next read is of the new generation, with the import.
    const next = await index.get();
    expect(next.generation).toBe('1');
    expect(next.index.items).toHaveLength(2);
  });
});
