import type { ZipListItem, ZipListPage } from './zipcodes.js';

/**
 * The /zip search rules (spec section 5), in one place: the zipcodes service pages with them
 * (GET /api/zipcodes?q=&tier=) and the web's tests check its screens against them.
 *
 * - `q` matches the ZIP code as a substring, and city, state or neighborhood as case-insensitive
 *   substrings, each field on its own ('hills ca' matches nothing). Surrounding spaces are
 *   ignored; an empty `q` matches everything.
 * - `tier` 1, 2 or 3 keeps the analyses whose tier text contains 'TIER <n>'.
 */

/** 1, 2 or 3 from a tier text ('TIER 1: Ultra-Premium' → 1); 0 when it does not say. */
export function zipTierNumber(tier: string): 0 | 1 | 2 | 3 {
  const match = /TIER ([123])/.exec(tier);
  return match ? (Number(match[1]) as 1 | 2 | 3) : 0;
}

interface Entry {
  item: ZipListItem;
  tier: 0 | 1 | 2 | 3;
  /**
   * ZIP code, city, state and neighborhood, lower-cased, joined by a character a term cannot hold
   * (searchZipList drops it from terms), so a term cannot span two fields. One substring test per
   * item instead of two: the ZIP code is digits, which lower-casing leaves as they are, so it
   * still matches exactly as a substring.
   */
  text: string;
}

const SEPARATOR = '\u0000';

/** A list prepared once (per import), so every search is one pass of two substring tests per item. */
export interface ZipListIndex {
  readonly items: readonly ZipListItem[];
  readonly entries: readonly Entry[];
  /** Tier 1 analyses: the Premium Markets counter. */
  readonly premium: number;
  /** Each entry's position by its ZIP code, so a search of given ZIP codes reads only those. */
  readonly byZip: ReadonlyMap<string, number>;
}

export function indexZipList(items: readonly ZipListItem[]): ZipListIndex {
  const entries = items.map((item) => ({
    item,
    tier: zipTierNumber(item.tier),
    text: [item.zipCode, item.location.city, item.location.state, item.location.neighborhood ?? '']
      .map((w) => w.toLowerCase())
      .join(SEPARATOR),
  }));
  return {
    items,
    entries,
    premium: entries.reduce((n, e) => n + (e.tier === 1 ? 1 : 0), 0),
    byZip: new Map(entries.map((e, i) => [e.item.zipCode, i])),
  };
}

export interface ZipSearch {
  q?: string | undefined;
  tier?: 1 | 2 | 3 | undefined;
  /** Only these ZIP codes (`codes`, comma-separated in the query). */
  codes?: readonly string[] | undefined;
}

/** The items matching `q`, `tier` and `codes`, in list order. */
export function searchZipList(index: ZipListIndex, { q, tier, codes }: ZipSearch): readonly ZipListItem[] {
  const term = (q ?? '').replaceAll(SEPARATOR, '').trim().toLowerCase();
  if (!term && !tier && !codes) return index.items;
  // Given ZIP codes: those entries only, in list order.
  const candidates = codes
    ? [...new Set(codes.flatMap((code) => index.byZip.get(code) ?? []))]
        .sort((a, b) => a - b)
        .flatMap((i) => index.entries[i] ?? [])
    : index.entries;
  const out: ZipListItem[] = [];
  for (const entry of candidates) {
    if (tier && entry.tier !== tier) continue;
    if (term && !entry.text.includes(term)) continue;
    out.push(entry.item);
  }
  return out;
}

/** One page of the matches, with the counters /zip shows. `offset` past the end gives an empty page. */
export function zipListPage(index: ZipListIndex, search: ZipSearch, limit: number, offset: number): ZipListPage {
  const matches = searchZipList(index, search);
  const end = offset + limit;
  return {
    zipCodes: matches.slice(offset, end),
    total: index.items.length,
    premium: index.premium,
    showing: matches.length,
    next_offset: end < matches.length ? end : null,
  };
}
