import { ZIP_PAGE_MAX, type ZipListPage, zipTierNumber } from '@homereport/contracts';
import { useQueries } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

/** A ZIP code's investment tier as a card shows it: 'TIER 2: High-Growth' is tier 2, "High-Growth". */
export interface ZipTier {
  number: 0 | 1 | 2 | 3;
  label: string;
}

export function zipTierOf(tier: string): ZipTier {
  return { number: zipTierNumber(tier), label: tier.replace(/^TIER [123]:\s*/, '').trim() };
}

/**
 * The sets of ZIP codes asked for: each distinct code once, sorted (one URL, so one cache entry
 * here and at the gateway, whatever the cards' order), at most ZIP_PAGE_MAX a call.
 */
export function zipCodeBatches(codes: readonly (string | null | undefined)[]): string[][] {
  const distinct = [...new Set(codes.filter((c): c is string => typeof c === 'string' && /^[0-9]{5}$/.test(c)))].sort();
  const batches: string[][] = [];
  for (let i = 0; i < distinct.length; i += ZIP_PAGE_MAX) batches.push(distinct.slice(i, i + ZIP_PAGE_MAX));
  return batches;
}

/**
 * The tiers of the ZIP codes the cards are in, by GET /api/zipcodes?codes=: one call per hundred
 * codes (a page of cards holds at most a hundred), not one per card. A code without an analysis
 * has no tier; while loading, or if the call fails, the cards simply show none.
 */
export function useZipTiers(codes: readonly (string | null | undefined)[]): ReadonlyMap<string, ZipTier> {
  const batches = zipCodeBatches(codes);
  return useQueries({
    queries: batches.map((batch) => {
      const query = `codes=${batch.join(',')}&limit=${ZIP_PAGE_MAX}`;
      return {
        queryKey: [...queryKeys.zipcodes, 'codes', query],
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          apiCall<ZipListPage>(`/api/zipcodes?${query}`, { token: null, signal }),
        staleTime: 5 * 60_000,
      };
    }),
    combine: (results) => {
      const tiers = new Map<string, ZipTier>();
      for (const result of results) {
        for (const item of result.data?.zipCodes ?? []) tiers.set(item.zipCode, zipTierOf(item.tier));
      }
      return tiers;
    },
  });
}
