import { leadStatusBadge } from '../leadStatus';

/** A lead's status as a coloured pill; an unknown value keeps its text on a neutral one. */
export function LeadStatusBadge({ status }: { status: string }) {
  const { label, tone } = leadStatusBadge(status);
  return (
    <span className={`status-badge status-badge-${tone}`} data-testid="lead-status-badge" data-status={status}>
      {label}
    </span>
  );
}
