import type { ReportSummary, ReportZipAnalysis } from '@homereport/contracts';

/**
 * A report's headline figures (api.md "Report summary") as people read them: one place, so a
 * Browse card, the ZIP page's list and the report page say them alike. Only the figures entered
 * are listed: a report without figures shows none, not a row of N/A.
 */

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const count = new Intl.NumberFormat('en-US');
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const plural = (n: number, one: string, many: string) => `${count.format(n)} ${n === 1 ? one : many}`;

export interface ReportFigure {
  key: keyof ReportSummary | 'price_per_sqft' | 'home';
  label: string;
  value: string;
}

type Summary = ReportSummary | null | undefined;

/** The figure of one field, formatted, when it was entered. */
function figure(key: ReportFigure['key'], label: string, value: number | undefined, format: (v: number) => string) {
  return value === undefined ? [] : [{ key, label, value: format(value) }];
}

const money = (summary: ReportSummary) => [
  ...figure('estimated_value', 'Estimated value', summary.estimated_value, (v) => dollars.format(v)),
  ...figure('monthly_rent', 'Monthly rent', summary.monthly_rent, (v) => `${dollars.format(v)}/mo`),
];

/**
 * The report page's figures, in the order a buyer reads them, each of its own; the price per
 * square foot follows from two of them.
 */
export function reportFigures(summary: Summary): ReportFigure[] {
  if (!summary) return [];
  const { estimated_value: value, sqft } = summary;
  return [
    ...money(summary),
    ...figure('beds', 'Beds', summary.beds, (v) => count.format(v)),
    ...figure('baths', 'Baths', summary.baths, (v) => oneDecimal.format(v)),
    ...figure('sqft', 'Square feet', sqft, (v) => count.format(v)),
    ...figure('year_built', 'Year built', summary.year_built, String),
    ...figure(
      'price_per_sqft',
      'Per square foot',
      value !== undefined && sqft !== undefined ? Math.round(value / sqft) : undefined,
      (v) => dollars.format(v),
    ),
  ];
}

/** A card's shorter list: the home's beds, baths and size on one line. */
export function figureLines(summary: Summary): ReportFigure[] {
  if (!summary) return [];
  const home = [
    summary.beds === undefined ? null : plural(summary.beds, 'bed', 'beds'),
    summary.baths === undefined ? null : plural(summary.baths, 'bath', 'baths'),
    summary.sqft === undefined ? null : `${count.format(summary.sqft)} sq ft`,
  ].filter((part): part is string => part !== null);
  return [
    ...money(summary),
    ...(home.length > 0 ? [{ key: 'home' as const, label: 'Home', value: home.join(' · ') }] : []),
    ...figure('year_built', 'Year built', summary.year_built, String),
  ];
}

/** Whether a report has any figure or headline to show. */
export const hasFigures = (summary: Summary) => figureLines(summary).length > 0 || Boolean(summary?.headline);

/**
 * The estimated value against the ZIP's median sale price, in words ("12% above the median sale
 * price in 78701"), or null when either is unknown.
 */
export function valueAgainstMedian(
  summary: Summary,
  zip: Pick<ReportZipAnalysis, 'zip_code' | 'median_price'>,
): string | null {
  const value = summary?.estimated_value;
  const median = zip.median_price;
  if (typeof value !== 'number' || typeof median !== 'number' || median <= 0) return null;
  const percent = Math.round(((value - median) / median) * 100);
  if (percent === 0) return `At the median sale price in ${zip.zip_code}.`;
  return `${Math.abs(percent)}% ${percent > 0 ? 'above' : 'below'} the median sale price in ${zip.zip_code}.`;
}
