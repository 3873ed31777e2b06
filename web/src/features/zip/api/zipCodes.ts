import type { ZipAnalysis, ZipDetailReply, ZipListPage, ZipListQuery } from '@homereport/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall, isApiError } from '../../../api/client';
import { queryKeys } from '../../../lib/queryKeys';

export const LOAD_ERROR = 'Failed to load ZIP code data. Please try again later.';

/** What /zip asks for: the search as typed (after the debounce), a tier, a page counted from 1. */
export interface ZipPageRequest {
  search: string;
  tier: '' | '1' | '2' | '3';
  page: number;
  pageSize: number;
}

/**
 * The query string of one page. The search is trimmed and lower-cased first (the server matches
 * case-insensitively anyway), so 'Boston' and 'boston ' are one URL: one entry in this app's
 * cache and in the gateway's, which keeps answers by URL.
 */
export function zipPageQuery({ search, tier, page, pageSize }: ZipPageRequest): string {
  const query: ZipListQuery = { limit: pageSize };
  const q = search.trim().toLowerCase();
  if (q) query.q = q;
  if (tier) query.tier = tier;
  if (page > 1) query.offset = (page - 1) * pageSize;
  return new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString();
}

/** This feature's query keys: every ZIP code read shares the 'zipcodes' prefix. */
export const zipKeys = {
  all: queryKeys.zipcodes,
  page: (query: string) => ['zipcodes', 'page', query] as const,
  detail: (zipCode: string) => ['zipcodes', 'detail', zipCode] as const,
};

/**
 * GET /api/zipcodes?q=&tier=&limit=&offset=: one page of the list, filtered by the server, with
 * the counters of /zip. Public; changes only when staff import. While the next page or search
 * loads, the previous answer stays on screen (placeholderData), so the grid does not flash.
 */
export function useZipCodePage(request: ZipPageRequest) {
  const query = zipPageQuery(request);
  return useQuery({
    queryKey: zipKeys.page(query),
    queryFn: ({ signal }) =>
      apiCall<ZipListPage>(`/api/zipcodes?${query}`, { token: null, fallbackError: LOAD_ERROR, signal }),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** Why a detail could not be shown: no analysis (404, or not a ZIP code), or anything else. */
export const isNotFound = (error: unknown) => isApiError(error) && (error.status === 404 || error.status === 400);

/**
 * GET /api/zipcodes/:zipCode. Resolves to null when the server answered without an analysis
 * (the "not available" state of spec section 8); a 404 is an error the page shows as not found.
 */
export function useZipAnalysis(zipCode: string) {
  return useQuery({
    queryKey: zipKeys.detail(zipCode),
    queryFn: async (): Promise<ZipAnalysis | null> => {
      const reply = await apiCall<ZipDetailReply | undefined>(`/api/zipcodes/${encodeURIComponent(zipCode)}`, {
        token: null,
        fallbackError: LOAD_ERROR,
      });
      return reply?.zipCode ?? null;
    },
    staleTime: 5 * 60_000,
  });
}
