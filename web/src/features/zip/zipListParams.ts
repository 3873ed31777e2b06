import { TIER_FILTERS, type TierFilter } from './zipFormat';

/**
 * What /zip shows lives in its address (?q=boston&tier=1&page=2), so Back from a ZIP code returns
 * to the same search, and a bookmark or a shared link opens it again. Defaults are left out, so
 * the plain list is plain /zip.
 */
export interface ZipFilters {
  /** The search as it goes to the server: trimmed; '' for none. */
  q: string;
  tier: TierFilter;
  /** Counted from 1. */
  page: number;
}

const TIERS = new Set<string>(TIER_FILTERS.map((option) => option.value));

/** The filters an address asks for; anything unreadable (tier=9, page=x) counts as the default. */
export function filtersFrom(params: URLSearchParams): ZipFilters {
  const tier = params.get('tier') ?? '';
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').trim(),
    tier: TIERS.has(tier) ? (tier as TierFilter) : '',
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

/**
 * The address after a change. A new search or tier starts again at page 1; parameters that are
 * not ours stay as they were.
 */
export function paramsWith(params: URLSearchParams, change: Partial<ZipFilters>): URLSearchParams {
  const next = { ...filtersFrom(params), ...change };
  if (change.q !== undefined || change.tier !== undefined) next.page = change.page ?? 1;
  const result = new URLSearchParams(params);
  const set = (name: string, value: string, isDefault: boolean) => {
    if (isDefault) result.delete(name);
    else result.set(name, value);
  };
  set('q', next.q.trim(), next.q.trim() === '');
  set('tier', next.tier, next.tier === '');
  set('page', String(next.page), next.page <= 1);
  return result;
}
