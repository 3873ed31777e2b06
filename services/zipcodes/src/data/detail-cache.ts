import type { ZipAnalysis } from '@homereport/contracts';
import { type Redis, readCacheGeneration } from '@homereport/kit';
import { GENERATION_KEY } from './list-index.js';

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
  private readonly entries = new Map<string, ZipAnalysis | null>();

  constructor(
    private readonly redis: Redis,
    private readonly maxEntries = 2000,
  ) {}

  async find(zipCode: string, load: (zipCode: string) => Promise<ZipAnalysis | null>): Promise<ZipAnalysis | null> {
    const generation = await readCacheGeneration(this.redis, GENERATION_KEY);
    if (generation === null) return load(zipCode);
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    if (this.entries.has(zipCode)) {
      const hit = this.entries.get(zipCode) ?? null;
      // Map order is insertion order: moving the entry to the end keeps the oldest first.
      this.entries.delete(zipCode);
      this.entries.set(zipCode, hit);
      return hit;
    }
    const analysis = await load(zipCode);
    // An import may have bumped the generation while we read; then what we read is not kept.
    if (this.generation === generation) {
      this.entries.set(zipCode, analysis);
      if (this.entries.size > this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
    }
    return analysis;
  }
}
