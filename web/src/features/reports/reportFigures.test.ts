import { describe, expect, it } from 'vitest';
import { reportFigures, tierParts, valueAgainstMedian } from './reportFigures';

describe('reportFigures', () => {
  it('lists the figures given, formatted, with the price per square foot when value and size are known', () => {
    expect(
      reportFigures({
        estimated_value: 450_000,
        monthly_rent: 2_400,
        beds: 3,
        baths: 2.5,
        sqft: 1_500,
        year_built: 1998,
      }),
    ).toEqual([
      { key: 'estimated_value', label: 'Estimated value', value: '$450,000' },
      { key: 'monthly_rent', label: 'Monthly rent', value: '$2,400/mo' },
      { key: 'beds', label: 'Beds', value: '3' },
      { key: 'baths', label: 'Baths', value: '2.5' },
      { key: 'sqft', label: 'Square feet', value: '1,500' },
      { key: 'year_built', label: 'Year built', value: '1998' },
      { key: 'price_per_sqft', label: 'Per square foot', value: '$300' },
    ]);
  });

  it('shows nothing for a report without figures, and only what was entered otherwise', () => {
    expect(reportFigures(null)).toEqual([]);
    expect(reportFigures({ headline: 'Only words' })).toEqual([]);
    expect(reportFigures({ beds: 0 }).map((f) => f.value)).toEqual(['0']);
  });
});

describe('valueAgainstMedian', () => {
  it('says how far the estimate is from the ZIP median, or nothing when one is unknown', () => {
    expect(valueAgainstMedian({ estimated_value: 560_000 }, { zip_code: '78701', median_price: 500_000 })).toBe(
      '12% above the median sale price in 78701.',
    );
    expect(valueAgainstMedian({ estimated_value: 450_000 }, { zip_code: '78701', median_price: 500_000 })).toBe(
      '10% below the median sale price in 78701.',
    );
    expect(valueAgainstMedian({ estimated_value: 500_100 }, { zip_code: '78701', median_price: 500_000 })).toBe(
      'At the median sale price in 78701.',
    );
    expect(valueAgainstMedian({}, { zip_code: '78701', median_price: 500_000 })).toBeNull();
    expect(valueAgainstMedian({ estimated_value: 1 }, { zip_code: '78701', median_price: null })).toBeNull();
  });
});

describe('tierParts', () => {
  it('splits a tier into its badge and its label', () => {
    expect(tierParts('TIER 2: High-Growth')).toEqual({ badge: 'Tier 2', label: 'High-Growth' });
    expect(tierParts('TIER 1:Ultra-Premium')).toEqual({ badge: 'Tier 1', label: 'Ultra-Premium' });
  });
});
