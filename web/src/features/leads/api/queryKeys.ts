import type { LeadStatus } from '@homereport/contracts';

export interface LeadFilter {
  status?: LeadStatus;
  key_name?: string;
}

/**
 * Query keys of this feature, under the admin prefix (so whatever clears the admin's data clears
 * these too). Every lead query starts with `leads.all`: a change to one lead refreshes them all.
 */
export const leadsKeys = {
  webhookKeys: ['admin', 'webhook-keys'] as const,
  all: ['admin', 'leads'] as const,
  list: (filter: LeadFilter) => ['admin', 'leads', 'list', filter.status ?? '', filter.key_name ?? ''] as const,
  stats: ['admin', 'leads', 'stats'] as const,
};

/** How often an open Leads tab looks for new arrivals (ad platforms post at any time). */
export const LEADS_REFRESH_MS = 30_000;
