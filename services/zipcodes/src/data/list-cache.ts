import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, brotliCompress, gzip } from 'node:zlib';
import { type ZipListIndex, type ZipListItem, indexZipList } from '@homereport/contracts';
import { type Redis, bumpCacheGeneration } from '@homereport/kit';
import type { ListInvalidation } from '../domain/ports.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** Brotli quality 9: about half gzip's size for this JSON, some 50 ms for 5,000 items, once per import. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } };

/** Bumped by every import; the list of generation N lives under LIST_KEY(N). */
export const GENERATION_KEY = 'zipcodes:list:generation';
export const listKey = (generation: string) => `zipcodes:list:${generation}`;

/** The body of GET /api/zipcodes, ready to send as it is. */
export interface CachedList {
  generation: string;
  json: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
  /** The same list prepared for searching, so a page (?q=&tier=&limit=) costs no database query. */
  index: ZipListIndex;
}

/**
 * The list of ZIP code analyses, cached in Redis and invalidated by imports.
 *
 * Redis holds the serialized body under a key named by a generation number; an import bumps the
 * number (INCR), so every replica and the import command agree at once that the old body is stale.
 * A rebuild that raced an import can only write under the old generation's key, which nobody
 * reads any more: no lock, no stale list.
 *
 * Each process also keeps the body of the current generation in memory, serialized and compressed
 * (gzip and brotli) once, so a request costs one small Redis GET (the generation number) and no serialization,
 * and the same items indexed for the search of the paged list.
 */
export class ListCache implements ListInvalidation {
  private current: CachedList | null = null;
  private readonly building = new Map<string, Promise<CachedList>>();

  constructor(
    private readonly redis: Redis,
    private readonly load: () => Promise<ZipListItem[]>,
    private readonly ttlSeconds: number,
    /** Rebuild at once after an invalidation, so the first visitor after an import does not wait. */
    private readonly warmAfterInvalidate = false,
  ) {}

  async get(): Promise<CachedList> {
    const generation = (await this.redis.get(GENERATION_KEY)) ?? '0';
    if (this.current?.generation === generation) return this.current;
    // One rebuild per generation at a time, however many requests wait for it.
    let pending = this.building.get(generation);
    if (!pending) {
      pending = this.fetch(generation).finally(() => this.building.delete(generation));
      this.building.set(generation, pending);
    }
    return pending;
  }

  async invalidate(): Promise<void> {
    const generation = await bumpCacheGeneration(this.redis, GENERATION_KEY);
    this.current = null;
    // The previous body is unreachable now; free its memory rather than wait for its expiry.
    await this.redis.del(listKey(String(generation - 1)));
    // In the background: the import's answer does not wait for the list; a failure here only
    // means the first list request rebuilds it, as it would without warming.
    if (this.warmAfterInvalidate) this.get().catch(() => {});
  }

  private async fetch(generation: string): Promise<CachedList> {
    let json = await this.redis.getBuffer(listKey(generation));
    let items: ZipListItem[];
    if (json) {
      // Built by another replica or the import command: parsed once here (some 20 ms for 5,000).
      items = (JSON.parse(json.toString('utf8')) as { zipCodes: ZipListItem[] }).zipCodes;
    } else {
      items = await this.load();
      json = Buffer.from(JSON.stringify({ zipCodes: items }));
      await this.redis.set(listKey(generation), json, 'EX', this.ttlSeconds);
    }
    const entry: CachedList = {
      generation,
      json,
      gzip: await gzipAsync(json),
      brotli: await brotliAsync(json, BROTLI),
      etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
      index: indexZipList(items),
    };
    if (!this.current || Number(generation) >= Number(this.current.generation)) this.current = entry;
    return entry;
  }
}
