import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ZipAnalysis } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { BUNDLED_SAMPLE } from '../src/config.js';
import { checkAnalysis } from '../src/domain/analyses.js';
import { RENT_SHARE, bulkPlaces, generateAnalysis, samplePlaces } from './generator.js';
import { SAMPLE_PLACES } from './neighborhoods.js';

const zipcodes = createRequire(import.meta.url)('zipcodes') as {
  lookup(zip: string): { city: string; state: string } | undefined;
  codes: Record<string, { zip: string; city: string; state: string; country: string }>;
};
const committed = JSON.parse(readFileSync(BUNDLED_SAMPLE, 'utf8')) as ZipAnalysis[];
const tierOf = (a: ZipAnalysis) => Number(a.reportMetadata.tier.slice(5, 6));

describe('the committed sample data set', () => {
  it('is exactly what the generator makes (regenerate with npm run zip:sample)', () => {
    const generated = samplePlaces(SAMPLE_PLACES, (zip) => zipcodes.lookup(zip)).map((p) => generateAnalysis(p));
    expect(committed).toEqual(generated);
  });

  it('holds at least 60 valid analyses of real ZIP codes, across the three tiers and many states, all marked sample', () => {
    expect(committed.length).toBeGreaterThanOrEqual(60);
    expect(new Set(committed.map((a) => a.zipCode)).size).toBe(committed.length);
    for (const a of committed) {
      expect(checkAnalysis(a)).toMatchObject({ ok: true });
      expect(a.reportMetadata.sample).toBe(true);
      const real = zipcodes.lookup(a.zipCode);
      expect(real).toBeDefined();
      expect(a.reportMetadata.location).toMatchObject({ city: real?.city, state: real?.state });
    }
    for (const tier of [1, 2, 3]) expect(committed.filter((a) => tierOf(a) === tier).length).toBeGreaterThanOrEqual(15);
    expect(new Set(committed.map((a) => a.reportMetadata.location.state)).size).toBeGreaterThanOrEqual(30);
  });
});

describe('generated figures hold together', () => {
  const all = [
    ...committed,
    ...bulkPlaces(
      300,
      Object.values(zipcodes.codes).filter((z) => z.country === 'US'),
    ).map((p) => generateAnalysis(p)),
  ];

  it('prices follow the tier: tier 1 above tier 2 above tier 3 on median', () => {
    const median = (tier: number) => {
      const prices = committed
        .filter((a) => tierOf(a) === tier)
        .map((a) => a.marketFundamentals.medianSalePrice?.value ?? 0)
        .sort((x, y) => x - y);
      return prices[Math.floor(prices.length / 2)] ?? 0;
    };
    expect(median(1)).toBeGreaterThan(median(2) * 2);
    expect(median(2)).toBeGreaterThan(median(3) * 1.5);
  });

  it('the 12 monthly medians end at the median sale price and follow the one-year appreciation', () => {
    for (const a of all) {
      const months = a.priceTrends?.twelveMonthTrend?.monthlyData ?? [];
      expect(months).toHaveLength(12);
      const price = a.marketFundamentals.medianSalePrice?.value ?? 0;
      const rate = a.marketFundamentals.annualAppreciationRate?.oneYear ?? 0;
      expect(months[11]?.medianPrice).toBe(price);
      // Eleven months of change between the first and the last point.
      const implied = ((months[11]?.medianPrice ?? 0) / (months[0]?.medianPrice ?? 1)) ** (12 / 11) - 1;
      expect(Math.abs(implied - rate), `${a.zipCode}: ${implied} vs ${rate}`).toBeLessThan(0.025);
      expect(months.map((m) => m.month)).toEqual([...months.map((m) => m.month)].sort());
    }
  });

  it('the gross yield is twelve three-bedroom rents over the median price, and smaller units rent for less', () => {
    for (const a of all) {
      const rent = a.priceTrends?.rentalMarket?.averageRent ?? {};
      const price = a.marketFundamentals.medianSalePrice?.value ?? 1;
      expect(
        Math.abs((12 * (rent.threeBedroom ?? 0)) / price - (a.priceTrends?.rentalMarket?.grossYield ?? 0)),
      ).toBeLessThan(0.0002);
      expect(rent.studio).toBeLessThan(rent.oneBedroom ?? 0);
      expect(rent.oneBedroom).toBeLessThan(rent.twoBedroom ?? 0);
      expect(rent.twoBedroom).toBeLessThan(rent.threeBedroom ?? 0);
      expect(Math.abs((rent.twoBedroom ?? 0) / (rent.threeBedroom ?? 1) - RENT_SHARE.twoBedroom)).toBeLessThan(0.03);
    }
  });

  it('is deterministic: the same place gives the same analysis, whatever was generated before', () => {
    const place = {
      zip: '02116',
      city: 'Boston',
      state: 'MA',
      neighborhood: 'Back Bay',
      tier: 1 as const,
      price: 1_350_000,
    };
    const first = generateAnalysis(place);
    bulkPlaces(20, [{ zip: '10001', city: 'New York', state: 'NY' }]).map((p) => generateAnalysis(p));
    expect(generateAnalysis(place)).toEqual(first);
    expect(generateAnalysis(place, { seed: 'other', throughMonth: '2025-06' })).not.toEqual(first);
  });

  it('bulk data for the benchmark is valid and as large as asked', () => {
    const places = bulkPlaces(
      5000,
      Object.values(zipcodes.codes).filter((z) => z.country === 'US'),
    );
    expect(places).toHaveLength(5000);
    expect(new Set(places.map((p) => p.zip)).size).toBe(5000);
    for (const p of places.slice(0, 200)) expect(checkAnalysis(generateAnalysis(p)).ok).toBe(true);
  });
});
