import type { ZipAnalysis, ZipDetailReply, ZipListReply } from '@homereport/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiCall, isApiError } from '../../../api/client';

export const LOAD_ERROR = 'Failed to load ZIP code data. Please try again later.';

/** This feature's query keys: every ZIP code read shares the 'zipcodes' prefix. */
export const zipKeys = {
  all: ['zipcodes'] as const,
  list: ['zipcodes', 'list'] as const,
  detail: (zipCode: string) => ['zipcodes', 'detail', zipCode] as const,
};

/** GET /api/zipcodes: every analysis as a list item. Public; changes only when staff import. */
export function useZipCodes() {
  return useQuery({
    queryKey: zipKeys.list,
    queryFn: async () => {
      const reply = await apiCall<ZipListReply>('/api/zipcodes', { token: null, fallbackError: LOAD_ERROR });
      return reply?.zipCodes ?? [];
    },
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
