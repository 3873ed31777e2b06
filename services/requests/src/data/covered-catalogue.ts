import type { Redis } from '@homereport/kit';
import type { CatalogueEntry, CoveredCatalogue, RequestStore } from '../domain/ports.js';
import { cityOf } from '../domain/search-terms.js';
import { GENERATION_KEY } from './covered-generation.js';

const catalogueKey = (generation: string) => `requests:covered:catalogue:${generation}`;

type Catalogue = { newest: CatalogueEntry[]; byCity: CatalogueEntry[] };

/**
 * The public search's view of every covered report (id, words, city), built once per generation
 * of the covered list (covered-generation.ts; every change bumps it) and kept in Redis for the other
 * replicas, parsed and sorted once per process. Tens of thousands of reports are a few MB: the
 * search, the city order and the paging are then work in memory, whatever the query.
 */
export class CoveredCatalogueCache implements CoveredCatalogue {
  private memo: (Catalogue & { generation: string; until: number }) | null = null;
  private building: Promise<Catalogue & { generation: string }> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly store: RequestStore,
    private readonly ttlSeconds: number,
  ) {}

  async entries(): Promise<Catalogue> {
    const generation = (await this.redis.get(GENERATION_KEY)) ?? '0';
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
      newest = (await this.store.allCovered()).map(({ id, address }) => ({
        id,
        text: address.normalize('NFKC').toLowerCase().replace(/\s+/g, ' '),
        city: cityOf(address),
      }));
      await this.redis.set(catalogueKey(generation), JSON.stringify(newest), 'EX', this.ttlSeconds);
    }
    const byCity = [...newest].sort(
      (a, b) =>
        (a.city === '' ? 1 : 0) - (b.city === '' ? 1 : 0) ||
        a.city.localeCompare(b.city) ||
        a.text.localeCompare(b.text),
    );
    this.memo = { generation, newest, byCity, until: Date.now() + this.ttlSeconds * 1000 };
    return this.memo;
  }
}
