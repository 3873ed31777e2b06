import type { ReportSummary, ReportZipAnalysis } from '@homereport/contracts';
import { formatCount, formatUsd } from '../zip/zipFormat';

export type ReportFigure = { key: keyof ReportSummary | 'price_per_sqft'; label: string; value: string };

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * The headline figures staff entered, in the order a buyer reads them, only those given (a report
 * without figures shows none, not a row of N/A). The price per square foot follows from two of them.
 */
export function reportFigures(summary: ReportSummary | null | undefined): ReportFigure[] {
  if (!summary) return [];
  const figures: ReportFigure[] = [];
  const add = (key: ReportFigure['key'], label: string, value: number | undefined, format: (v: number) => string) => {
    if (typeof value === 'number') figures.push({ key, label, value: format(value) });
  };
  add('estimated_value', 'Estimated value', summary.estimated_value, formatUsd);
  add('monthly_rent', 'Monthly rent', summary.monthly_rent, (v) => `${formatUsd(v)}/mo`);
  add('beds', 'Beds', summary.beds, formatCount);
  add('baths', 'Baths', summary.baths, (v) => oneDecimal.format(v));
  add('sqft', 'Square feet', summary.sqft, formatCount);
  add('year_built', 'Year built', summary.year_built, String);
  if (summary.estimated_value !== undefined && summary.sqft !== undefined) {
    add('price_per_sqft', 'Per square foot', Math.round(summary.estimated_value / summary.sqft), formatUsd);
  }
  return figures;
}

/**
 * The estimated value against the ZIP's median sale price, in words ("12% above the median sale
 * price in 78701"), or null when either is unknown.
 */
export function valueAgainstMedian(
  summary: ReportSummary | null | undefined,
  zip: Pick<ReportZipAnalysis, 'zip_code' | 'median_price'>,
): string | null {
  const value = summary?.estimated_value;
  const median = zip.median_price;
  if (typeof value !== 'number' || typeof median !== 'number' || median <= 0) return null;
  const percent = Math.round(((value - median) / median) * 100);
  if (percent === 0) return `At the median sale price in ${zip.zip_code}.`;
  return `${Math.abs(percent)}% ${percent > 0 ? 'above' : 'below'} the median sale price in ${zip.zip_code}.`;
}

/** The tier as a badge says it: 'TIER 2: High-Growth' → { badge: 'Tier 2', label: 'High-Growth' }. */
export function tierParts(tier: string): { badge: string; label: string } {
  const colon = tier.indexOf(':');
  const head = (colon === -1 ? tier : tier.slice(0, colon)).trim();
  const badge = head.charAt(0).toUpperCase() + head.slice(1).toLowerCase();
  return { badge, label: colon === -1 ? '' : tier.slice(colon + 1).trim() };
}
