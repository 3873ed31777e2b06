import { describe, expect, it } from 'vitest';
import { isZipCode, zipTier } from './zipCodes';

describe('a ZIP code’s tier', () => {
  it('has its badge (the text before the colon), its number, its label and the name a badge shows', () => {
    expect(zipTier('TIER 1: Ultra-Premium')).toEqual({
      number: 1,
      badge: 'TIER 1',
      label: 'Ultra-Premium',
      name: 'Tier 1',
    });
    expect(zipTier('TIER 3:Emerging')).toEqual({ number: 3, badge: 'TIER 3', label: 'Emerging', name: 'Tier 3' });
    expect(zipTier('TIER 2: High-Growth')).toEqual({
      number: 2,
      badge: 'TIER 2',
      label: 'High-Growth',
      name: 'Tier 2',
    });
    expect(zipTier('TIER 2')).toEqual({ number: 2, badge: 'TIER 2', label: '', name: 'Tier 2' });
  });

  it('is tier 0 when the text does not say, and keeps the text as its badge and its name', () => {
    expect(zipTier('Unrated')).toEqual({ number: 0, badge: 'Unrated', label: '', name: 'Unrated' });
  });
});

describe('isZipCode', () => {
  it('takes five digits and nothing else', () => {
    expect(isZipCode('02116')).toBe(true);
    expect(isZipCode('2116')).toBe(false);
    expect(isZipCode('021160')).toBe(false);
    expect(isZipCode('abcde')).toBe(false);
  });
});
