import type { ZipAnalysis } from '@homereport/contracts';
import { type Redis, readCacheGeneration } from '@homereport/kit';
import { LRUCache } from 'lru-cache';
import { GENERATION_KEY } from './list-index.js';

/** "We have none" as kept: the cache holds no null. */
const NONE = Symbol('none');

/**
 * The analyses this process read lately, answers "we have none" included, kept while the list
 * generation (list-index.ts) stays the same: any import, from any replica or the command, bumps
 * it and so empties every process's cache at its next request. A request costs one small Redis
 * GET instead of a database lookup. At most `maxEntries`, least recently used out first. While
 * Redis does not answer (readCacheGeneration's short deadline) nothing kept can be trusted, as an
 * import may have happened meanwhile: each request reads through to the database.
 */
export class DetailCache {
  private generation: string | null = null;
  private readonly entries: LRUCache<string, ZipAnalysis | typeof NONE>;

  constructor(
    private readonly redis: Redis,
    maxEntries = 2000,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  async find(zipCode: string, load: (zipCode: string) => Promise<ZipAnalysis | null>): Promise<ZipAnalysis | null> {
    const generation = await readCacheGeneration(this.redis, GENERATION_KEY);
    if (generation === null) return load(zipCode);
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    const hit = this.entries.get(zipCode);
    if (hit !== undefined) return hit === NONE ? null : hit;
    const analysis = await load(zipCode);
    // An import may have bumped the generation while we read; then what we read is not kept.
    if (this.generation === generation) this.entries.set(zipCode, analysis ?? NONE);
    return analysis;
  }
}
