import { createHash } from 'node:crypto';
import { type ZipListIndex, type ZipListItem, indexZipList } from '@homereport/contracts';
import { type Redis, bumpCacheGeneration, readCacheGeneration } from '@homereport/kit';
import type { ListInvalidation } from '../domain/ports.js';

/** Bumped by every import, by the service or the zip:import command (kit's cache-generation.ts). */
export const GENERATION_KEY = 'zipcodes:list:generation';

/** The list as one generation has it, ready to page and search. */
interface IndexedList {
  /** null: read while Redis did not answer, so under no generation (nobody may keep answers from it). */
  generation: string | null;
  index: ZipListIndex;
  /** Of the whole list; a page is a function of the list and its URL, so it validates every page too. */
  etag: string;
}

/**
 * The list of ZIP code analyses, read from the database once per generation and indexed for the
 * search (contracts' zipcodes-search.ts). It keeps no answers: the gateway keeps those, each URL
 * on its own, until the generation changes (decision 008), so this is asked on the gateway's
 * misses only. Every call still reads the generation in Redis (one GET), so an import by another
 * replica or by the command is seen at once.
 */
export class ListIndex implements ListInvalidation {
  private current: IndexedList | null = null;
  private readonly building = new Map<string, Promise<IndexedList>>();

  constructor(
    private readonly redis: Redis,
    private readonly load: () => Promise<ZipListItem[]>,
    /** Rebuild at once after an import here, so the first visitor after it does not wait. */
    private readonly warmAfterInvalidate = false,
  ) {}

  async get(): Promise<IndexedList> {
    // Read before the list, never after: an import landing between the two then bumps past this
    // generation, so nothing keeps the list read here under the newer name.
    const generation = await readCacheGeneration(this.redis, GENERATION_KEY);
    // Redis away: what is kept may predate an import, so the list is read through (one read at a
    // time, shared by the requests waiting), under no generation, and not kept.
    if (generation === null) return this.shared('read-through', () => this.read(null));
    if (this.current?.generation === generation) return this.current;
    return this.shared(generation, () => this.build(generation));
  }

  /** One read of the collection per generation at a time, however many requests wait for it. */
  private shared(name: string, build: () => Promise<IndexedList>): Promise<IndexedList> {
    let pending = this.building.get(name);
    if (!pending) {
      pending = build().finally(() => this.building.delete(name));
      this.building.set(name, pending);
    }
    return pending;
  }

  async invalidate(): Promise<void> {
    await bumpCacheGeneration(this.redis, GENERATION_KEY);
    this.current = null;
    // In the background: the import's answer does not wait for the list; a failure here only
    // means the first list request reads it, as it would without warming.
    if (this.warmAfterInvalidate) this.get().catch(() => {});
  }

  private async build(generation: string): Promise<IndexedList> {
    const entry = await this.read(generation);
    if (!this.current || Number(generation) >= Number(this.current.generation)) this.current = entry;
    return entry;
  }

  private async read(generation: string | null): Promise<IndexedList> {
    const items = await this.load();
    const json = JSON.stringify({ zipCodes: items });
    return {
      generation,
      index: indexZipList(items),
      etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
    };
  }
}
