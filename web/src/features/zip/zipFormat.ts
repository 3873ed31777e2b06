import type { ZipListItem } from '@homereport/contracts';

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

/** The badge of a tier: the text before the colon ('TIER 1: Ultra-Premium' → 'TIER 1'). */
export function tierBadge(tier: string): string {
  const colon = tier.indexOf(':');
  return (colon === -1 ? tier : tier.slice(0, colon)).trim();
}

/** 1, 2 or 3 for styling; 0 when the tier does not say. */
export function tierNumber(tier: string): 0 | 1 | 2 | 3 {
  const match = /TIER ([123])/.exec(tier);
  return match ? (Number(match[1]) as 1 | 2 | 3) : 0;
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

/** The tier filter of /zip: the value is what the tier text must contain (spec section 5). */
export const TIER_FILTERS = [
  { value: '', label: 'All Tiers' },
  { value: 'TIER 1', label: 'Tier 1 - Ultra-Premium' },
  { value: 'TIER 2', label: 'Tier 2 - High-Growth' },
  { value: 'TIER 3', label: 'Tier 3 - Emerging' },
] as const;

/** An item with its search text prepared once, so filtering 5,000 items per keystroke stays cheap. */
export interface Searchable {
  item: ZipListItem;
  zip: string;
  /** City, state and neighborhood, lower-cased, separated so a term cannot span two fields. */
  words: string;
}

export function toSearchable(items: readonly ZipListItem[]): Searchable[] {
  return items.map((item) => ({
    item,
    zip: item.zipCode,
    words: [item.location.city, item.location.state, item.location.neighborhood ?? '']
      .map((w) => w.toLowerCase())
      .join('\u0000'),
  }));
}

/**
 * Spec section 5: the ZIP code matches by substring; city, state and neighborhood match as
 * case-insensitive substrings; the tier filter matches when the tier text contains the chosen
 * label. An empty search or tier matches everything.
 */
export function filterZipCodes(items: readonly Searchable[], search: string, tier: string): ZipListItem[] {
  const term = search.trim();
  const lower = term.toLowerCase();
  const out: ZipListItem[] = [];
  for (const entry of items) {
    if (tier && !entry.item.tier.includes(tier)) continue;
    if (term && !entry.zip.includes(term) && !entry.words.includes(lower)) continue;
    out.push(entry.item);
  }
  return out;
}

/** Premium Markets counter: the Tier 1 analyses. */
export function countPremium(items: readonly ZipListItem[]): number {
  return items.reduce((n, item) => n + (tierNumber(item.tier) === 1 ? 1 : 0), 0);
}

/** The last `count` months of the trend, oldest first (spec: the last 6 months are listed). */
export function lastMonths<T>(monthly: readonly T[] | null | undefined, count = 6): T[] {
  return (monthly ?? []).slice(-count);
}

/** The page of a list; pages count from 1 and a page past the end shows the last one. */
export function pageOf<T>(
  items: readonly T[],
  page: number,
  size: number,
): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, page), pages);
  return { items: items.slice((current - 1) * size, current * size), page: current, pages };
}
