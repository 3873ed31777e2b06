import type { ZipAnalysis } from '@homereport/contracts';
import type { Redis } from '@homereport/kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DetailCache } from './detail-cache.js';
import { GENERATION_KEY } from './list-index.js';

function fakeRedis() {
  const values = new Map<string, string>();
  return { values, redis: { get: async (key: string) => values.get(key) ?? null } as unknown as Redis };
}

const analysis = (zipCode: string, note = '') => ({ zipCode, note }) as unknown as ZipAnalysis;

describe('DetailCache', () => {
  it('reads each ZIP code once per generation, "none" included, and again after an import bumps it', async () => {
    const { values, redis } = fakeRedis();
    const cache = new DetailCache(redis);
    const reads: string[] = [];
    const load = async (zip: string) => {
      reads.push(zip);
      return zip === '00000' ? null : analysis(zip, `read ${reads.length}`);
    };
    expect(await cache.find('44113', load)).toEqual(analysis('44113', 'read 1'));
    expect(await cache.find('44113', load)).toEqual(analysis('44113', 'read 1'));
    expect(await cache.find('00000', load)).toBeNull();
    expect(await cache.find('00000', load)).toBeNull();
    expect(reads).toEqual(['44113', '00000']);

    values.set(GENERATION_KEY, '1');
    expect(await cache.find('44113', load)).toEqual(analysis('44113', 'read 3'));
    expect(reads).toEqual(['44113', '00000', '44113']);
  });

  it('does not keep what it read while an import changed the generation', async () => {
    const { values, redis } = fakeRedis();
    const cache = new DetailCache(redis);
    let reads = 0;
    const slowLoad = async (zip: string) => {
      reads++;
      // An import lands while this read is in flight; a request under the new generation runs first.
      values.set(GENERATION_KEY, '7');
      await cache.find('99999', async () => null);
      return analysis(zip, 'old');
    };
    await cache.find('44113', slowLoad);
    await cache.find('44113', async (zip) => {
      reads++;
      return analysis(zip, 'new');
    });
    expect(reads).toBe(2);
  });

  it('keeps at most the given number of entries, dropping the least recently used', async () => {
    const { redis } = fakeRedis();
    const cache = new DetailCache(redis, 2);
    const reads: string[] = [];
    const load = async (zip: string) => {
      reads.push(zip);
      return analysis(zip);
    };
    await cache.find('1', load);
    await cache.find('2', load);
    await cache.find('1', load); // 1 is now the most recent
    await cache.find('3', load); // drops 2
    await cache.find('1', load);
    await cache.find('2', load);
    expect(reads).toEqual(['1', '2', '3', '2']);
  });

  describe('while Redis does not answer', () => {
    afterEach(() => vi.useRealTimers());

    it('reads through to the database after a short deadline, and keeps nothing', async () => {
      vi.useFakeTimers();
      const hung = { get: () => new Promise(() => {}) } as unknown as Redis;
      const cache = new DetailCache(hung);
      let reads = 0;
      const load = async (zip: string) => analysis(zip, `read ${++reads}`);
      const first = cache.find('44113', load);
      await vi.advanceTimersByTimeAsync(300);
      expect(await first).toEqual(analysis('44113', 'read 1'));
      const second = cache.find('44113', load);
      await vi.advanceTimersByTimeAsync(300);
      expect(await second).toEqual(analysis('44113', 'read 2'));
    });

    it('reads through at once when Redis refuses the call', async () => {
      const down = { get: async () => Promise.reject(new Error('Connection is closed.')) } as unknown as Redis;
      const cache = new DetailCache(down);
      expect(await cache.find('44113', async (zip) => analysis(zip, 'from the database'))).toEqual(
        analysis('44113', 'from the database'),
      );
    });
  });
});
