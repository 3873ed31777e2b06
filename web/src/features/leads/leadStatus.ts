import type { LeadStatus } from '@homereport/contracts';

export type LeadBadgeTone = 'blue' | 'yellow' | 'teal' | 'green' | 'red' | 'grey';

const known: Record<LeadStatus, { label: string; tone: LeadBadgeTone }> = {
  new: { label: 'New', tone: 'blue' },
  contacted: { label: 'Contacted', tone: 'yellow' },
  qualified: { label: 'Qualified', tone: 'teal' },
  converted: { label: 'Converted', tone: 'green' },
  lost: { label: 'Lost', tone: 'red' },
};

/**
 * The statuses an admin can set, in working order. The record above must name every status of
 * the contract (a type-only import keeps TypeBox out of the bundle).
 */
export const LEAD_STATUS_OPTIONS = (Object.keys(known) as LeadStatus[]).map((status) => ({
  status,
  label: known[status].label,
}));

export function isLeadStatus(value: string): value is LeadStatus {
  return Object.hasOwn(known, value);
}

/** Spec section 4: new, qualified, converted (and our contacted, lost); anything else keeps its text on a neutral badge. */
export function leadStatusBadge(status: string): { label: string; tone: LeadBadgeTone } {
  return isLeadStatus(status) ? known[status] : { label: status || 'Unknown', tone: 'grey' };
}

export function leadName(lead: { first_name: string; last_name: string }): string {
  return `${lead.first_name} ${lead.last_name}`.trim() || 'Name not given';
}
