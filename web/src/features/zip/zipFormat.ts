/** What the screens show for a value nobody knows. */
export const NOT_AVAILABLE = 'N/A';

const usdFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const countFormat = new Intl.NumberFormat('en-US');

const known = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** Dollars without decimals (spec section 9): $1,234,568. */
export function formatUsd(value: number | null | undefined): string {
  return known(value) ? usdFormat.format(value) : NOT_AVAILABLE;
}

/** A stored fraction as a percent with one decimal (spec section 9): 0.054 → 5.4%. */
export function formatPercent(value: number | null | undefined): string {
  if (!known(value)) return NOT_AVAILABLE;
  // toFixed rounds 0.0005 oddities the same way everywhere; -0.0 shows as 0.0.
  const text = (value * 100).toFixed(1);
  return `${text === '-0.0' ? '0.0' : text}%`;
}

/** A change as a signed percent: +5.4%, -2.0%, 0.0%. */
export function formatChange(value: number | null | undefined): string {
  const text = formatPercent(value);
  return known(value) && value > 0 && text !== '0.0%' ? `+${text}` : text;
}

export function formatCount(value: number | null | undefined): string {
  return known(value) ? countFormat.format(value) : NOT_AVAILABLE;
}

/** A number with the unit after it, or N/A: "34 days". */
export function formatWithUnit(value: number | null | undefined, unit: string): string {
  return known(value) ? `${countFormat.format(value)} ${unit}` : NOT_AVAILABLE;
}

export function formatText(value: string | null | undefined): string {
  return typeof value === 'string' && value.trim() !== '' ? value : NOT_AVAILABLE;
}

/** 'low-medium' → 'Low-Medium'. */
export function formatRisk(level: string | null | undefined): string {
  if (!level) return NOT_AVAILABLE;
  return level
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('-');
}

/** 'YYYY-MM-DD' → 'June 30, 2025' without time-zone drift. */
export function formatReportDate(value: string | null | undefined): string {
  const match = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!match) return formatText(value);
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** 'YYYY-MM' → 'Jun 2025'. */
export function formatMonth(value: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** The tier filter of /zip: the value is the `tier` query parameter of GET /api/zipcodes. */
export const TIER_FILTERS = [
  { value: '', label: 'All Tiers' },
  { value: '1', label: 'Tier 1 - Ultra-Premium' },
  { value: '2', label: 'Tier 2 - High-Growth' },
  { value: '3', label: 'Tier 3 - Emerging' },
] as const;
export type TierFilter = (typeof TIER_FILTERS)[number]['value'];

/** The last `count` months of the trend, oldest first (spec: the last 6 months are listed). */
export function lastMonths<T>(monthly: readonly T[] | null | undefined, count = 6): T[] {
  return (monthly ?? []).slice(-count);
}
