import type { ZipListItem } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import {
  countPremium,
  filterZipCodes,
  formatChange,
  formatPercent,
  formatReportDate,
  formatRisk,
  formatUsd,
  lastMonths,
  pageOf,
  tierBadge,
  toSearchable,
} from './zipFormat';

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

const items = toSearchable([
  item('90210', 'TIER 1: Ultra-Premium', 'Beverly Hills', 'CA', 'Beverly Hills Flats'),
  item('78704', 'TIER 2: High-Growth', 'Austin', 'TX', 'South Congress (SoCo)'),
  item('44113', 'TIER 3: Emerging', 'Cleveland', 'OH', 'Ohio City / Tremont'),
  item('10007', 'TIER 1: Ultra-Premium', 'New York', 'NY', 'Tribeca'),
  item('02116', 'TIER 2: High-Growth', 'Boston', 'MA', null),
]);
const zips = (list: ZipListItem[]) => list.map((i) => i.zipCode);

describe('ZIP search (spec section 5)', () => {
  it('matches the ZIP code by substring', () => {
    expect(zips(filterZipCodes(items, '021', ''))).toEqual(['90210', '02116']);
    expect(zips(filterZipCodes(items, '4411', ''))).toEqual(['44113']);
  });

  it('matches city, state and neighborhood as case-insensitive substrings', () => {
    expect(zips(filterZipCodes(items, 'bEvErLy', ''))).toEqual(['90210']);
    expect(zips(filterZipCodes(items, 'tx', ''))).toEqual(['78704']);
    expect(zips(filterZipCodes(items, 'TRIBECA', ''))).toEqual(['10007']);
    expect(zips(filterZipCodes(items, 'ohio city', ''))).toEqual(['44113']);
    expect(zips(filterZipCodes(items, 'york', ''))).toEqual(['10007']);
  });

  it('ignores surrounding spaces; an empty search matches everything; nothing matching gives nothing', () => {
    expect(filterZipCodes(items, '  ', '')).toHaveLength(5);
    expect(zips(filterZipCodes(items, '  austin ', ''))).toEqual(['78704']);
    expect(filterZipCodes(items, 'zzz', '')).toEqual([]);
  });

  it('does not match across fields or against the tier or profile text', () => {
    expect(filterZipCodes(items, 'hills ca', '')).toEqual([]);
    expect(filterZipCodes(items, 'premium', '')).toEqual([]);
  });

  it('filters by tier: the tier text must contain the chosen label, combined with the search', () => {
    expect(zips(filterZipCodes(items, '', 'TIER 1'))).toEqual(['90210', '10007']);
    expect(zips(filterZipCodes(items, '', 'TIER 3'))).toEqual(['44113']);
    expect(zips(filterZipCodes(items, 'o', 'TIER 2'))).toEqual(['78704', '02116']);
    expect(filterZipCodes(items, '', '')).toHaveLength(5);
  });

  it('counts Tier 1 analyses as premium markets', () => {
    expect(countPremium(items.map((i) => i.item))).toBe(2);
  });
});

describe('formatting (spec section 9)', () => {
  it('shows dollars without decimals', () => {
    expect(formatUsd(3_580_000)).toBe('$3,580,000');
    expect(formatUsd(1234.56)).toBe('$1,235');
    expect(formatUsd(0)).toBe('$0');
  });

  it('shows stored fractions as percents with one decimal', () => {
    expect(formatPercent(0.054)).toBe('5.4%');
    expect(formatPercent(0.1088)).toBe('10.9%');
    expect(formatPercent(-0.034)).toBe('-3.4%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(-0.0001)).toBe('0.0%');
    expect(formatChange(0.025)).toBe('+2.5%');
    expect(formatChange(-0.012)).toBe('-1.2%');
  });

  it('shows N/A for missing values', () => {
    expect(formatUsd(null)).toBe('N/A');
    expect(formatUsd(undefined)).toBe('N/A');
    expect(formatPercent(null)).toBe('N/A');
    expect(formatChange(undefined)).toBe('N/A');
    expect(formatRisk(null)).toBe('N/A');
  });

  it('shows the tier badge as the text before the colon', () => {
    expect(tierBadge('TIER 1: Ultra-Premium')).toBe('TIER 1');
    expect(tierBadge('TIER 3:Emerging')).toBe('TIER 3');
    expect(tierBadge('TIER 2')).toBe('TIER 2');
  });

  it('shows risk levels and report dates for people', () => {
    expect(formatRisk('low-medium')).toBe('Low-Medium');
    expect(formatRisk('high')).toBe('High');
    expect(formatReportDate('2025-06-30')).toBe('June 30, 2025');
  });

  it('lists the last 6 months of the trend, oldest first', () => {
    const months = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`);
    expect(lastMonths(months)).toEqual(['2025-07', '2025-08', '2025-09', '2025-10', '2025-11', '2025-12']);
    expect(lastMonths(months.slice(0, 3))).toEqual(['2025-01', '2025-02', '2025-03']);
    expect(lastMonths(undefined)).toEqual([]);
  });

  it('pages results, keeping the page within range', () => {
    const list = Array.from({ length: 50 }, (_, i) => i);
    expect(pageOf(list, 1, 24)).toEqual({ items: list.slice(0, 24), page: 1, pages: 3 });
    expect(pageOf(list, 3, 24).items).toEqual([48, 49]);
    expect(pageOf(list, 9, 24).page).toBe(3);
    expect(pageOf([], 1, 24)).toEqual({ items: [], page: 1, pages: 1 });
  });

  it('filters 5,000 items quickly enough to run on every keystroke', () => {
    const many = toSearchable(
      Array.from({ length: 5000 }, (_, i) =>
        item(String(10000 + i), `TIER ${(i % 3) + 1}: X`, `City ${i}`, 'ST', `Neighborhood ${i}`),
      ),
    );
    const started = performance.now();
    for (const term of ['c', 'ci', 'cit', 'city', 'city 4', 'city 49', '1', '12', '123'])
      filterZipCodes(many, term, '');
    expect((performance.now() - started) / 9).toBeLessThan(16);
  });
});
