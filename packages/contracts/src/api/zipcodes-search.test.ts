import { describe, expect, it } from 'vitest';
import { indexZipList, searchZipList, zipListPage, zipTierNumber } from './zipcodes-search.js';
import type { ZipListItem } from './zipcodes.js';

const item = (
  zipCode: string,
  tier: string,
  city: string,
  state: string,
  neighborhood: string | null,
): ZipListItem => ({
  zipCode,
  tier,
  location: { city, state, neighborhood },
  marketFundamentals: { medianSalePrice: { value: 500_000 }, annualAppreciationRate: { oneYear: 0.05 } },
  executiveSummary: { riskLevel: 'medium' },
  investmentProfile: 'Growth',
});

const index = indexZipList([
  item('90210', 'TIER 1: Ultra-Premium', 'Beverly Hills', 'CA', 'Beverly Hills Flats'),
  item('78704', 'TIER 2: High-Growth', 'Austin', 'TX', 'South Congress (SoCo)'),
  item('44113', 'TIER 3: Emerging', 'Cleveland', 'OH', 'Ohio City / Tremont'),
  item('10007', 'TIER 1: Ultra-Premium', 'New York', 'NY', 'Tribeca'),
  item('02116', 'TIER 2: High-Growth', 'Boston', 'MA', null),
]);
const zips = (q: string, tier?: 1 | 2 | 3) => searchZipList(index, { q, tier }).map((i) => i.zipCode);

describe('ZIP search (spec section 5)', () => {
  it('matches the ZIP code by substring', () => {
    expect(zips('021')).toEqual(['90210', '02116']);
    expect(zips('4411')).toEqual(['44113']);
  });

  it('matches city, state and neighborhood as case-insensitive substrings', () => {
    expect(zips('bEvErLy')).toEqual(['90210']);
    expect(zips('tx')).toEqual(['78704']);
    expect(zips('TRIBECA')).toEqual(['10007']);
    expect(zips('ohio city')).toEqual(['44113']);
    expect(zips('york')).toEqual(['10007']);
  });

  it('ignores surrounding spaces; an empty search matches everything; nothing matching gives nothing', () => {
    expect(zips('  ')).toHaveLength(5);
    expect(zips('  austin ')).toEqual(['78704']);
    expect(zips('zzz')).toEqual([]);
  });

  it('does not match across fields or against the tier or profile text', () => {
    expect(zips('hills ca')).toEqual([]);
    expect(zips('premium')).toEqual([]);
    expect(zips('growth')).toEqual([]);
    // Not across the ZIP code and the city either, even with the separator itself in the term.
    expect(zips('90210beverly')).toEqual([]);
    expect(zips('90210\u0000beverly')).toEqual([]);
    expect(zips('0\u0000')).toEqual(zips('0'));
  });

  it('filters by tier, combined with the search', () => {
    expect(zips('', 1)).toEqual(['90210', '10007']);
    expect(zips('', 3)).toEqual(['44113']);
    expect(zips('o', 2)).toEqual(['78704', '02116']);
  });

  it('reads the tier number from the tier text', () => {
    expect(zipTierNumber('TIER 1: Ultra-Premium')).toBe(1);
    expect(zipTierNumber('TIER 3:Emerging')).toBe(3);
    expect(zipTierNumber('Unrated')).toBe(0);
  });
});

describe('a page of the list', () => {
  it('counts every analysis, the Tier 1 ones and the matches, whatever page is asked', () => {
    expect(zipListPage(index, { tier: 2 }, 1, 0)).toMatchObject({
      zipCodes: [expect.objectContaining({ zipCode: '78704' })],
      total: 5,
      premium: 2,
      showing: 2,
      next_offset: 1,
    });
    const last = zipListPage(index, { tier: 2 }, 1, 1);
    expect(last.zipCodes.map((i) => i.zipCode)).toEqual(['02116']);
    expect(last.next_offset).toBeNull();
  });

  it('gives an empty last page past the end, and no next page for an exact fit', () => {
    expect(zipListPage(index, {}, 24, 100)).toEqual({
      zipCodes: [],
      total: 5,
      premium: 2,
      showing: 5,
      next_offset: null,
    });
    expect(zipListPage(index, {}, 5, 0).next_offset).toBeNull();
    expect(zipListPage(index, {}, 4, 0).next_offset).toBe(4);
  });

  it('keeps only the ZIP codes given (a page of Browse cards), in list order, with the other filters', () => {
    const codes = (given: string[], tier?: 1 | 2 | 3) =>
      searchZipList(index, { codes: given, tier }).map((i) => i.zipCode);
    expect(codes(['02116', '90210', '99999', '90210'])).toEqual(['90210', '02116']);
    expect(codes(['02116', '90210'], 1)).toEqual(['90210']);
    expect(codes(['99999'])).toEqual([]);
  });

  it('searches 5,000 items as they are typed, a page of matches each time', () => {
    const many = indexZipList(
      Array.from({ length: 5000 }, (_, i) =>
        item(String(10000 + i), `TIER ${(i % 3) + 1}: X`, `City ${i}`, 'ST', `Neighborhood ${i}`),
      ),
    );
    // How fast is `npm run bench:zip-search`'s concern; here, what each keystroke finds.
    const page = (q: string) => zipListPage(many, { q }, 24, 0);
    expect(page('c').showing).toBe(5000);
    expect(page('city 49').showing).toBe(111); // City 49, 490-499, 4900-4999
    expect(page('city 49').zipCodes[0]?.zipCode).toBe('10049');
    expect(page('123').zipCodes.map((i) => i.zipCode)).toContain('10123');
    expect(page('city 4999').zipCodes.map((i) => i.zipCode)).toEqual(['14999']);
  });
});
