import { describe, expect, it } from 'vitest';
import { UNKNOWN_COLOUR, categoryScale, thresholdScale } from './colourScale';

const percent = (value: number) => `${Math.round(value * 100)}%`;

describe('thresholdScale', () => {
  const scale = thresholdScale([0, 0.05], ['red', 'white', 'blue'], percent);

  it('gives the class a value falls in, a value on a threshold belonging to the class above', () => {
    expect(scale.colourOf(-0.2)).toBe('red');
    expect(scale.colourOf(0)).toBe('white');
    expect(scale.colourOf(0.049)).toBe('white');
    expect(scale.colourOf(0.05)).toBe('blue');
    expect(scale.colourOf(0.9)).toBe('blue');
  });

  it('greys out a value nobody knows', () => {
    for (const value of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(scale.colourOf(value)).toBe(UNKNOWN_COLOUR);
    }
  });

  it('has a legend row per class, as ranges, then one for unknown values', () => {
    expect(scale.legend).toEqual([
      { colour: 'red', label: 'Below 0%' },
      { colour: 'white', label: '0% to 5%' },
      { colour: 'blue', label: '5% and above' },
      { colour: UNKNOWN_COLOUR, label: 'Not known' },
    ]);
  });

  it('refuses colours that do not match the thresholds, and thresholds that do not rise', () => {
    expect(() => thresholdScale([0, 1], ['a', 'b'], percent)).toThrow(/2 thresholds need 3 colours/);
    expect(() => thresholdScale([1, 0], ['a', 'b', 'c'], percent)).toThrow(/rise/);
  });
});

describe('categoryScale', () => {
  const scale = categoryScale<number>([
    { value: 1, colour: 'purple', label: 'Tier 1' },
    { value: 2, colour: 'amber', label: 'Tier 2' },
  ]);

  it('gives each category its colour and anything else the unknown grey', () => {
    expect(scale.colourOf(1)).toBe('purple');
    expect(scale.colourOf(2)).toBe('amber');
    expect(scale.colourOf(3)).toBe(UNKNOWN_COLOUR);
    expect(scale.colourOf(null)).toBe(UNKNOWN_COLOUR);
  });

  it('lists the categories in order, then unknown', () => {
    expect(scale.legend.map((entry) => entry.label)).toEqual(['Tier 1', 'Tier 2', 'Not known']);
  });
});
