import { describe, expect, it } from 'vitest';
import { type ZipMeasures, measureChanges, measuresOf } from './measures.js';

const base: ZipMeasures = { price: 350_000, rent: 1800, appreciation: 0.04, risk: 'medium' };

describe('measure changes', () => {
  it('nothing moved: no change', () => {
    expect(measureChanges(base, { ...base })).toEqual([]);
  });

  it('lists each moved measure with its old and new value, in the email order', () => {
    expect(measureChanges(base, { ...base, risk: 'high', price: 360_000 })).toEqual([
      { measure: 'price', from: 350_000, to: 360_000 },
      { measure: 'risk', from: 'medium', to: 'high' },
    ]);
  });

  it('a measure that appears or disappears is a change', () => {
    expect(measureChanges({ ...base, rent: null }, base)).toEqual([{ measure: 'rent', from: null, to: 1800 }]);
  });

  it('reads the four measures of an analysis, null where absent', () => {
    expect(
      measuresOf({
        marketFundamentals: { medianSalePrice: { value: 1 }, annualAppreciationRate: { oneYear: 0.1 } },
        executiveSummary: { riskLevel: 'low' },
      } as never),
    ).toEqual({ price: 1, rent: null, appreciation: 0.1, risk: 'low' });
  });
});
