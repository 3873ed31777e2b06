import { statusBadge } from '../lib/requestStatus';
import './shared.css';

/** A request's status as a coloured pill (spec section 4). */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const { label, tone } = statusBadge(status);
  return (
    <span className={`status-badge status-badge-${tone}`} data-testid={testId} data-status={status}>
      {label}
    </span>
  );
}
