import { type ZipListItem, type indexZipList, zipListPage } from '@homereport/contracts';

/** `count` ZIP analyses, three tiers in turn and every fiftieth in a Springfield (for a typed search). */
export const manyZipItems = (count: number): ZipListItem[] =>
  Array.from({ length: count }, (_, i) => ({
    zipCode: String(10000 + i),
    tier: `TIER ${(i % 3) + 1}: ${['Ultra-Premium', 'High-Growth', 'Emerging'][i % 3]}`,
    location: { city: i % 50 === 0 ? 'Springfield' : `Town ${i}`, state: 'IL', neighborhood: `District ${i % 97}` },
    marketFundamentals: { medianSalePrice: { value: 200_000 + i * 100 }, annualAppreciationRate: { oneYear: 0.04 } },
    executiveSummary: { riskLevel: 'medium' },
    investmentProfile: 'Cash-flow investing with value-add upside',
    sample: true,
  }));

/**
 * The list API's answer to a GET /api/zipcodes URL, by the zipcodes service's own paging
 * (zipListPage, from contracts) over an index of the items: for a page whose list calls the test
 * answers itself, without storing the items in the shared test database.
 */
export function zipListAnswer(index: ReturnType<typeof indexZipList>, url: URL) {
  const get = (name: string) => url.searchParams.get(name) ?? undefined;
  const tier = get('tier');
  return zipListPage(
    index,
    { q: get('q'), tier: tier ? (Number(tier) as 1 | 2 | 3) : undefined },
    Number(get('limit') ?? 24),
    Number(get('offset') ?? 0),
  );
}
