import type {
  LeadStats,
  LeadStatus,
  LeadsReply,
  UpdateLeadStatusBody,
  UpdateLeadStatusReply,
} from '@homereport/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiCall, getStoredToken } from '../../../api/client';
import { saveFile } from '../../../lib/saveFile';
import { LEADS_REFRESH_MS, type LeadFilter, leadsKeys } from './queryKeys';

/** The query string of a lead list or export: only the filters that are set. */
export function leadsQuery(filter: LeadFilter, extra: Record<string, string | null | undefined> = {}): string {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.key_name) params.set('key_name', filter.key_name);
  for (const [name, value] of Object.entries(extra)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** GET /api/admin/leads, newest first, a page at a time (Load more follows `next_cursor`). */
export function useLeads(filter: LeadFilter) {
  return useInfiniteQuery({
    queryKey: leadsKeys.list(filter),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiCall<LeadsReply>(`/api/admin/leads${leadsQuery(filter, { cursor: pageParam })}`, {
        signal,
        fallbackError: 'Failed to load leads',
      }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    select: (data) => data.pages.flatMap((page) => page.leads),
    staleTime: 0,
    refetchInterval: LEADS_REFRESH_MS,
  });
}

/** GET /api/admin/leads/stats: kept counters (total, new, qualified, converted). */
export function useLeadStats() {
  return useQuery({
    queryKey: leadsKeys.stats,
    queryFn: () => apiCall<LeadStats>('/api/admin/leads/stats', { fallbackError: 'Failed to load lead statistics' }),
    staleTime: 0,
    refetchInterval: LEADS_REFRESH_MS,
  });
}

/** PUT /api/admin/leads/:id/status; every lead list and the counters reload. */
export function useSetLeadStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: LeadStatus }) =>
      apiCall<UpdateLeadStatusReply>(`/api/admin/leads/${encodeURIComponent(id)}/status`, {
        method: 'PUT',
        body: { status } satisfies UpdateLeadStatusBody,
        fallbackError: 'Failed to update the lead status',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: leadsKeys.all }),
  });
}

/** GET /api/admin/leads/export.csv with the filters, saved as a file (lib/saveFile: it needs the bearer token). */
export async function downloadLeadsCsv(filter: LeadFilter): Promise<void> {
  const token = getStoredToken();
  let response: Response;
  try {
    response = await fetch(`/api/admin/leads/export.csv${leadsQuery(filter)}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  } catch {
    throw new ApiError({ ok: false, status: 0, error: 'Network error. Please try again.', networkError: true });
  }
  if (!response.ok) {
    throw new ApiError({ ok: false, status: response.status, error: 'Failed to export leads', networkError: false });
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  saveFile(await response.blob(), /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'leads.csv');
}

export function useExportLeads() {
  return useMutation({ mutationFn: downloadLeadsCsv });
}
