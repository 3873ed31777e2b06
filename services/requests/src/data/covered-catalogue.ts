import { type Redis, readCacheGeneration } from '@homereport/kit';
import type { CatalogueEntry, CoveredCatalogue, RequestStore } from '../domain/ports.js';
import { cityOf } from '../domain/search-terms.js';
import { GENERATION_KEY } from './covered-generation.js';

const catalogueKey = (generation: string) => `requests:covered:catalogue:${generation}`;

type Catalogue = { newest: CatalogueEntry[]; byCity: CatalogueEntry[] };

/**
 * The public search's view of every covered report (id, words, city), built once per generation
 * of the covered list (covered-generation.ts; every change bumps it) and kept in Redis for the other
 * replicas, parsed and sorted once per process. Tens of thousands of reports are a few MB: the
 * search, the city order and the paging are then work in memory, whatever the query. While Redis
 * does not answer (the kit's short cache deadline) nothing kept can be trusted: the catalogue is
 * read from the database, one read shared by the searches waiting for it, and kept nowhere.
 */
export class CoveredCatalogueCache implements CoveredCatalogue {
  private memo: (Catalogue & { generation: string; until: number }) | null = null;
  private building: Promise<Catalogue & { generation: string }> | null = null;
  /** The one read through to the database while Redis does not answer, shared by the searches waiting. */
  private readingThrough: Promise<Catalogue> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly store: RequestStore,
    private readonly ttlSeconds: number,
  ) {}

  async entries(): Promise<Catalogue> {
    const generation = await readCacheGeneration(this.redis, GENERATION_KEY);
    if (generation === null) {
      this.readingThrough ??= this.fromStore().finally(() => {
        this.readingThrough = null;
      });
      return this.readingThrough;
    }
    const memo = this.memo;
    if (memo && memo.generation === generation && memo.until > Date.now()) return memo;
    if (!this.building) {
      this.building = this.load(generation).finally(() => {
        this.building = null;
      });
    }
    const built = await this.building;
    // Built for an older generation while a change happened: build again for the current one.
    return built.generation === generation ? built : this.load(generation);
  }

  private async load(generation: string): Promise<Catalogue & { generation: string }> {
    const kept = await this.redis.get(catalogueKey(generation));
    let newest: CatalogueEntry[];
    if (kept !== null) newest = JSON.parse(kept) as CatalogueEntry[];
    else {
      newest = await this.newestFromStore();
      await this.redis.set(catalogueKey(generation), JSON.stringify(newest), 'EX', this.ttlSeconds);
    }
    const catalogue = withCityOrder(newest);
    this.memo = { generation, ...catalogue, until: Date.now() + this.ttlSeconds * 1000 };
    return this.memo;
  }

  private async fromStore(): Promise<Catalogue> {
    return withCityOrder(await this.newestFromStore());
  }

  private async newestFromStore(): Promise<CatalogueEntry[]> {
    return (await this.store.allCovered()).map(({ id, address }) => ({
      id,
      text: address.normalize('NFKC').toLowerCase().replace(/\s+/g, ' '),
      city: cityOf(address),
    }));
  }
}

/** The catalogue in both orders the search offers: newest first (as given) and by city. */
function withCityOrder(newest: CatalogueEntry[]): Catalogue {
  const byCity = [...newest].sort(
    (a, b) =>
      (a.city === '' ? 1 : 0) - (b.city === '' ? 1 : 0) || a.city.localeCompare(b.city) || a.text.localeCompare(b.text),
  );
  return { newest, byCity };
}
