import { describe, expect, it } from 'vitest';
import { generateAnalysis } from '../../tools/generator.js';
import { MAX_ERRORS_PER_RECORD, checkAnalysis, isZipCode, toListItem } from './analyses.js';

const valid = () =>
  generateAnalysis({
    zip: '44113',
    city: 'Cleveland',
    state: 'OH',
    neighborhood: 'Ohio City',
    tier: 3,
    price: 250_000,
  });

const errorsOf = (record: unknown) => {
  const checked = checkAnalysis(record);
  return checked.ok ? [] : checked.errors;
};

describe('isZipCode', () => {
  it.each(['02116', '90210', '00501'])('accepts %s', (zip) => expect(isZipCode(zip)).toBe(true));
  it.each(['2116', '902100', '9021O', ' 90210', '90210 ', '', '90210-1234'])('refuses "%s"', (zip) =>
    expect(isZipCode(zip)).toBe(false),
  );
});

describe('checkAnalysis', () => {
  it('accepts a complete analysis', () => {
    expect(checkAnalysis(valid())).toEqual({ ok: true, analysis: valid() });
  });

  it('accepts a minimal analysis: identity, tier, place and date, with unknown values left out or null', () => {
    const minimal = {
      zipCode: '02116',
      reportMetadata: {
        tier: 'TIER 1: Ultra-Premium',
        location: { city: 'Boston', state: 'MA' },
        reportDate: '2025-06-30',
      },
      executiveSummary: { riskLevel: null },
      marketFundamentals: { medianSalePrice: { value: null } },
    };
    expect(checkAnalysis(minimal).ok).toBe(true);
  });

  it.each([
    ['TIER 1: Ultra-Premium', true],
    ['TIER 2:High-Growth', true],
    ['TIER 3: Emerging', true],
    ['TIER 4: Unknown', false],
    ['Tier 1: Ultra-Premium', false],
    ['TIER 1 Ultra-Premium', false],
    ['TIER 1:', false],
    ['TIER 1 - Ultra-Premium', false],
  ])('tier "%s" is accepted: %s', (tier, accepted) => {
    const record = valid();
    record.reportMetadata.tier = tier;
    expect(checkAnalysis(record).ok).toBe(accepted);
  });

  it('accepts exactly the five risk levels, wherever a risk level is asked for', () => {
    for (const level of ['low', 'low-medium', 'medium', 'medium-high', 'high']) {
      const record = valid();
      (record.executiveSummary as { riskLevel: string }).riskLevel = level;
      expect(checkAnalysis(record).ok).toBe(true);
    }
    const record = valid();
    (record.executiveSummary as { riskLevel: string }).riskLevel = 'Medium';
    (record.investmentAnalysis?.riskFactors as Record<string, { level: string }>)['Interest rates'] = {
      level: 'moderate',
    };
    expect(errorsOf(record)).toEqual([
      'executiveSummary.riskLevel: must be one of low, low-medium, medium, medium-high, high (got "Medium")',
      'investmentAnalysis.riskFactors.Interest rates.level: must be one of low, low-medium, medium, medium-high, high (got "moderate")',
    ]);
  });

  it('refuses a percentage written as a percent instead of a fraction, naming the field', () => {
    const record = valid();
    (record.marketFundamentals.annualAppreciationRate as { oneYear: number }).oneYear = 5.4;
    (record.priceTrends?.rentalMarket as { grossYield: number }).grossYield = 7;
    expect(errorsOf(record)).toEqual([
      'marketFundamentals.annualAppreciationRate.oneYear: must be a fraction between -1 and 1 (0.054 means 5.4%) (got 5.4)',
      'priceTrends.rentalMarket.grossYield: must be a fraction between 0 and 1 (0.42 means 42%) (got 7)',
    ]);
  });

  it('refuses unknown fields, missing required ones and malformed dates', () => {
    const { executiveSummary: _left, ...rest } = valid();
    const record = { ...rest, reportMetadata: { ...rest.reportMetadata, reportDate: '06/30/2025', region: 'Midwest' } };
    expect(errorsOf(record)).toEqual(
      expect.arrayContaining([
        'executiveSummary: is required',
        'reportMetadata.region: is not a field of a ZIP code analysis',
        'reportMetadata.reportDate: must be a date written YYYY-MM-DD (got "06/30/2025")',
      ]),
    );
  });

  it('refuses monthly data out of order or with a month twice', () => {
    const record = valid();
    const months = record.priceTrends?.twelveMonthTrend?.monthlyData ?? [];
    [months[3], months[4]] = [months[4] as (typeof months)[number], months[3] as (typeof months)[number]];
    expect(errorsOf(record)).toEqual([expect.stringMatching(/monthlyData\.4\.month: months must be in order/)]);
  });

  it('refuses anything that is not an object, and reports at most a bounded number of errors', () => {
    expect(errorsOf([])).toEqual(['(record): must be an object holding one ZIP code analysis']);
    expect(errorsOf(null)).toHaveLength(1);
    const junk = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`field${i}`, i]));
    expect(errorsOf(junk)).toHaveLength(MAX_ERRORS_PER_RECORD);
  });
});

describe('toListItem', () => {
  it('keeps exactly the list fields of spec section 3, and the gross yield the map colours by', () => {
    const item = toListItem(valid());
    expect(Object.keys(item).sort()).toEqual([
      'executiveSummary',
      'investmentProfile',
      'location',
      'marketFundamentals',
      'priceTrends',
      'sample',
      'tier',
      'zipCode',
    ]);
    expect(item.priceTrends).toEqual({
      rentalMarket: { grossYield: valid().priceTrends?.rentalMarket?.grossYield },
    });
    expect(item.priceTrends?.rentalMarket.grossYield).toEqual(expect.any(Number));
    expect(item.marketFundamentals).toEqual({
      medianSalePrice: { value: valid().marketFundamentals.medianSalePrice?.value },
      annualAppreciationRate: { oneYear: valid().marketFundamentals.annualAppreciationRate?.oneYear },
    });
  });

  it('gives null for unknown values and no sample flag for real research', () => {
    const item = toListItem({
      zipCode: '02116',
      reportMetadata: {
        tier: 'TIER 1: Ultra-Premium',
        location: { city: 'Boston', state: 'MA' },
        reportDate: '2025-06-30',
      },
      executiveSummary: {},
      marketFundamentals: {},
    });
    expect(item).toEqual({
      zipCode: '02116',
      tier: 'TIER 1: Ultra-Premium',
      location: { city: 'Boston', state: 'MA', neighborhood: null },
      marketFundamentals: { medianSalePrice: { value: null }, annualAppreciationRate: { oneYear: null } },
      executiveSummary: { riskLevel: null },
      investmentProfile: null,
      priceTrends: { rentalMarket: { grossYield: null } },
    });
  });
});
