import { ZIP_PAGE_MAX, type ZipListPage } from '@homereport/contracts';
import { useQueries } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';
import { type ZipTier, isZipCode, zipTier } from '../../../lib/zipCodes';

/**
 * The sets of ZIP codes asked for: each distinct code once, sorted (one URL, so one cache entry
 * here and at the gateway, whatever the cards' order), at most ZIP_PAGE_MAX a call.
 */
export function zipCodeBatches(codes: readonly (string | null | undefined)[]): string[][] {
  const distinct = [...new Set(codes.filter((c): c is string => typeof c === 'string' && isZipCode(c)))].sort();
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
        for (const item of result.data?.zipCodes ?? []) tiers.set(item.zipCode, zipTier(item.tier));
      }
      return tiers;
    },
  });
}
