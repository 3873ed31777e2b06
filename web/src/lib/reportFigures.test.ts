import { describe, expect, it } from 'vitest';
import { figureLines, hasFigures, reportFigures, valueAgainstMedian } from './reportFigures';

const SUMMARY = { estimated_value: 450_000, monthly_rent: 2_400, beds: 3, baths: 2.5, sqft: 1_500, year_built: 1998 };

describe('a report’s headline figures in words', () => {
  it('on the report page: each figure entered, money in dollars, and the price per square foot', () => {
    expect(reportFigures(SUMMARY)).toEqual([
      { key: 'estimated_value', label: 'Estimated value', value: '$450,000' },
      { key: 'monthly_rent', label: 'Monthly rent', value: '$2,400/mo' },
      { key: 'beds', label: 'Beds', value: '3' },
      { key: 'baths', label: 'Baths', value: '2.5' },
      { key: 'sqft', label: 'Square feet', value: '1,500' },
      { key: 'year_built', label: 'Year built', value: '1998' },
      { key: 'price_per_sqft', label: 'Per square foot', value: '$300' },
    ]);
  });

  it('on a card: the same, with the home on one line', () => {
    expect(figureLines(SUMMARY)).toEqual([
      { key: 'estimated_value', label: 'Estimated value', value: '$450,000' },
      { key: 'monthly_rent', label: 'Monthly rent', value: '$2,400/mo' },
      { key: 'home', label: 'Home', value: '3 beds · 2.5 baths · 1,500 sq ft' },
      { key: 'year_built', label: 'Year built', value: '1998' },
    ]);
  });

  it('leaves out what was not entered, and counts one alone', () => {
    expect(reportFigures(null)).toEqual([]);
    expect(reportFigures({ headline: 'Only words' })).toEqual([]);
    expect(reportFigures({ beds: 0 }).map((f) => f.value)).toEqual(['0']);
    expect(figureLines({ beds: 1, baths: 1 })).toEqual([{ key: 'home', label: 'Home', value: '1 bed · 1 bath' }]);
    expect(figureLines({ beds: 0 })).toEqual([{ key: 'home', label: 'Home', value: '0 beds' }]);
    expect(figureLines(null)).toEqual([]);
    expect(hasFigures(null)).toBe(false);
    expect(hasFigures({})).toBe(false);
    expect(hasFigures({ headline: 'Quiet street.' })).toBe(true);
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
