import { describe, expect, it } from 'vitest';
import { figureLines, hasFigures } from './reportFigures';

describe('a report’s headline figures in words', () => {
  it('says each figure entered, money in dollars, the home on one line', () => {
    expect(
      figureLines({
        estimated_value: 485_000,
        monthly_rent: 2_650,
        beds: 3,
        baths: 2.5,
        sqft: 1_840,
        year_built: 1987,
      }),
    ).toEqual([
      { key: 'estimated_value', label: 'Estimated value', value: '$485,000' },
      { key: 'monthly_rent', label: 'Monthly rent', value: '$2,650/mo' },
      { key: 'home', label: 'Home', value: '3 beds · 2.5 baths · 1,840 sq ft' },
      { key: 'year_built', label: 'Year built', value: '1987' },
    ]);
  });

  it('leaves out what was not entered, and counts one alone', () => {
    expect(figureLines({ beds: 1, baths: 1 })).toEqual([{ key: 'home', label: 'Home', value: '1 bed · 1 bath' }]);
    expect(figureLines({ beds: 0 })).toEqual([{ key: 'home', label: 'Home', value: '0 beds' }]);
    expect(figureLines(null)).toEqual([]);
    expect(hasFigures(null)).toBe(false);
    expect(hasFigures({})).toBe(false);
    expect(hasFigures({ headline: 'Quiet street.' })).toBe(true);
  });
});
