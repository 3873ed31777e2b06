import { type Redis, bumpCacheGeneration, readCacheGeneration } from '@homereport/kit';
import type { CoveredGeneration } from '../domain/ports.js';

/** Bumped by every change to a covered request (kit's cache-generation.ts). */
export const GENERATION_KEY = 'requests:covered:generation';

/**
 * The generation of the public covered list, in Redis so every replica agrees on it at once.
 * Nothing here keeps an answer: the gateway keeps the first page per generation (its
 * public-cache.ts, decision 008); the search reads the database (properties).
 */
export class CoveredListGeneration implements CoveredGeneration {
  readonly key = GENERATION_KEY;

  constructor(private readonly redis: Redis) {}

  /** Within the kit's short cache deadline; null past it (the page is then sent, not kept). */
  current(): Promise<string | null> {
    return readCacheGeneration(this.redis, GENERATION_KEY);
  }

  async bump(): Promise<void> {
    await bumpCacheGeneration(this.redis, GENERATION_KEY);
  }
}
