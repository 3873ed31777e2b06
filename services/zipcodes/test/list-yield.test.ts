import type { ZipListItem, ZipListPage } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { api } from '../../../test/support/api.js';
import sample from '../sample/analyses.json' with { type: 'json' };

/** The map of /zip colours ZIP codes by gross yield (issue 25), so every list answer carries it. */
describe('the gross yield in list items', () => {
  const yieldOf = (zip: string) =>
    sample.find((analysis) => analysis.zipCode === zip)?.priceTrends?.rentalMarket?.grossYield;

  it('travels in the whole list, as the analysis has it', async () => {
    const items = (await api('GET', '/api/zipcodes')).body.zipCodes as ZipListItem[];
    const boston = items.find((item) => item.zipCode === '02116');
    expect(yieldOf('02116')).toEqual(expect.any(Number));
    expect(boston?.priceTrends).toEqual({ rentalMarket: { grossYield: yieldOf('02116') } });
  });

  it('travels in a page of a filtered list', async () => {
    // Other suites import tier 1 ZIP codes of their own into the same database: ask for a sample one.
    const page = (await api('GET', '/api/zipcodes?tier=1&q=Beverly%20Hills&limit=5')).body as ZipListPage;
    const fromSample = page.zipCodes.filter((item) => yieldOf(item.zipCode) !== undefined);
    expect(fromSample.map((item) => item.zipCode)).toContain('90210');
    for (const item of fromSample) {
      expect(item.priceTrends?.rentalMarket.grossYield).toBe(yieldOf(item.zipCode));
    }
  });
});
