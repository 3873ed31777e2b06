import { describe, expect, it } from 'vitest';
import { addressTerms, cityOf, queryTerms } from './search-terms.js';

describe('search terms', () => {
  it('are the whole words of an address, lower case, each once', () => {
    expect(addressTerms('12 Main St., Austin, TX 78701 (Main house)')).toEqual([
      '12',
      'main',
      'st',
      'austin',
      'tx',
      '78701',
      'house',
    ]);
  });

  it('of a query ignore punctuation and case, and are none for a blank box', () => {
    expect(queryTerms('  Austin,  tx ')).toEqual(['austin', 'tx']);
    expect(queryTerms(' , ')).toEqual([]);
    expect(queryTerms(undefined)).toEqual([]);
  });
});

describe('cityOf', () => {
  it.each([
    ['12 Main St, Austin, TX 78701', 'Austin'],
    ['12 Main St, Round Rock, TX', 'Round Rock'],
    ['12 Main St, Boise, ID, 83702', 'Boise'],
    ['12 Main St, Portland OR 97201', 'Portland'],
    ['12 Main St', ''],
  ])('finds the city of %s', (address, city) => {
    expect(cityOf(address)).toBe(city);
  });
});
