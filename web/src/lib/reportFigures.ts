import type { ReportSummary } from '@homereport/contracts';

/**
 * A report's headline figures (api.md "Report summary") as people read them: one place, so a
 * Browse card, the ZIP page's list and the report page say them alike.
 */

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const count = new Intl.NumberFormat('en-US');
const plural = (n: number, one: string, many: string) => `${count.format(n)} ${n === 1 ? one : many}`;

export interface FigureLine {
  key: 'estimated_value' | 'monthly_rent' | 'home' | 'year_built';
  label: string;
  value: string;
}

/** The figures entered, each as a label and a value; none when nothing was entered. */
export function figureLines(summary: ReportSummary | null | undefined): FigureLine[] {
  if (!summary) return [];
  const lines: FigureLine[] = [];
  if (summary.estimated_value !== undefined) {
    lines.push({ key: 'estimated_value', label: 'Estimated value', value: dollars.format(summary.estimated_value) });
  }
  if (summary.monthly_rent !== undefined) {
    lines.push({ key: 'monthly_rent', label: 'Monthly rent', value: `${dollars.format(summary.monthly_rent)}/mo` });
  }
  const home = [
    summary.beds === undefined ? null : plural(summary.beds, 'bed', 'beds'),
    summary.baths === undefined ? null : plural(summary.baths, 'bath', 'baths'),
    summary.sqft === undefined ? null : `${count.format(summary.sqft)} sq ft`,
  ].filter((part): part is string => part !== null);
  if (home.length > 0) lines.push({ key: 'home', label: 'Home', value: home.join(' · ') });
  if (summary.year_built !== undefined) {
    lines.push({ key: 'year_built', label: 'Year built', value: String(summary.year_built) });
  }
  return lines;
}

/** Whether a report has any figure or headline to show. */
export const hasFigures = (summary: ReportSummary | null | undefined) =>
  figureLines(summary).length > 0 || Boolean(summary?.headline);
