import { describe, expect, it } from 'vitest';
import { axisTicks, compactUsdAxis, usdAxis } from './chartAxis';

const labels = (values: number[], fromZero = false) => {
  const { ticks, format } = usdAxis(values, fromZero);
  return ticks.map(format);
};

describe('the money axis of the ZIP charts', () => {
  it('labels a narrow range of millions with enough decimals to tell the ticks apart', () => {
    // The case that showed "$1.4M" four times.
    const monthly = [1_382_000, 1_401_500, 1_415_000, 1_428_000, 1_446_000, 1_462_000, 1_470_500];
    expect(labels(monthly)).toEqual(['$1.35M', '$1.40M', '$1.45M', '$1.50M']);
  });

  it('uses no more decimals than it needs', () => {
    expect(labels([1_000_000, 3_900_000])).toEqual(['$1M', '$2M', '$3M', '$4M']);
    expect(labels([352_000, 371_000])).toEqual(['$350K', '$355K', '$360K', '$365K', '$370K', '$375K']);
    expect(labels([1_450, 2_980], true)).toEqual(['$0', '$1,000', '$2,000', '$3,000']);
  });

  it('never rounds a tick to another number', () => {
    expect(compactUsdAxis([1_375_000, 1_400_000, 1_425_000])(1_375_000)).toBe('$1.375M');
  });

  it('never repeats a label, whatever the range', () => {
    for (const centre of [950, 12_345, 99_999, 480_000, 1_234_567, 9_870_000, 25_000_000]) {
      for (const spread of [0, 0.001, 0.01, 0.05, 0.2, 1]) {
        const shown = labels([centre * (1 - spread), centre, centre * (1 + spread)]);
        expect(shown.length, `${centre} ±${spread}`).toBeGreaterThanOrEqual(2);
        expect(new Set(shown).size, `${centre} ±${spread}: ${shown.join(' ')}`).toBe(shown.length);
      }
    }
  });

  it('covers the data with a handful of round ticks', () => {
    const ticks = axisTicks(1_382_000, 1_470_500);
    expect(ticks[0]).toBeLessThanOrEqual(1_382_000);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(1_470_500);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.length).toBeLessThanOrEqual(7);
    expect(axisTicks(0.1, 0.7)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
  });

  it('gives a flat series a range around its value', () => {
    const ticks = axisTicks(500_000, 500_000);
    expect(ticks[0]).toBeLessThan(500_000);
    expect(ticks.at(-1)).toBeGreaterThan(500_000);
  });

  it('formats the same number of decimals on every tick, and zero as $0', () => {
    const format = compactUsdAxis([1_400_000, 1_450_000, 1_500_000]);
    expect([1_400_000, 1_450_000, 1_500_000].map(format)).toEqual(['$1.40M', '$1.45M', '$1.50M']);
    expect(compactUsdAxis([0, 500, 1000])(0)).toBe('$0');
  });

  it('has no ticks for no data', () => {
    expect(usdAxis([]).ticks).toEqual([]);
    expect(usdAxis([Number.NaN]).ticks).toEqual([]);
  });
});
