import type { RequestStatus } from '@homereport/contracts';

export type BadgeTone = 'yellow' | 'blue' | 'green' | 'grey';

const known: Record<RequestStatus, { label: string; tone: BadgeTone }> = {
  requested: { label: 'Requested', tone: 'yellow' },
  in_progress: { label: 'In Progress', tone: 'blue' },
  covered: { label: 'Covered', tone: 'green' },
};

/** The statuses an admin can set, in the order of the Update Status buttons. */
export const REQUEST_STATUS_OPTIONS: { status: RequestStatus; label: string }[] = [
  { status: 'requested', label: 'Requested' },
  { status: 'in_progress', label: 'In Progress' },
  { status: 'covered', label: 'Covered' },
];

/**
 * Spec section 4: Requested yellow, In Progress blue, Covered green; any other value keeps its
 * own text on a grey badge, so a status the app does not know yet still shows.
 */
export function statusBadge(status: string): { label: string; tone: BadgeTone } {
  return Object.hasOwn(known, status) ? known[status as RequestStatus] : { label: status || 'Unknown', tone: 'grey' };
}
