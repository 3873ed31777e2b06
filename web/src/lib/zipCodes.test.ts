import { describe, expect, it } from 'vitest';
import { isZipCode, zipTier } from './zipCodes';

describe('a ZIP code’s tier', () => {
  it('has its badge (the text before the colon), its number and its label', () => {
    expect(zipTier('TIER 1: Ultra-Premium')).toEqual({ number: 1, badge: 'TIER 1', label: 'Ultra-Premium' });
    expect(zipTier('TIER 3:Emerging')).toEqual({ number: 3, badge: 'TIER 3', label: 'Emerging' });
    expect(zipTier('TIER 2: High-Growth')).toEqual({ number: 2, badge: 'TIER 2', label: 'High-Growth' });
    expect(zipTier('TIER 2')).toEqual({ number: 2, badge: 'TIER 2', label: '' });
  });

  it('is tier 0 when the text does not say, and keeps the text as its badge', () => {
    expect(zipTier('Unrated')).toEqual({ number: 0, badge: 'Unrated', label: '' });
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
