import { describe, expect, it } from 'vitest';
import { formatChange, formatPercent, formatReportDate, formatRisk, formatUsd, lastMonths } from './zipFormat';

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
});
