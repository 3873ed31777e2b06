import type { CoverageRequest } from '@homereport/contracts';
import type { ReactNode } from 'react';
import { ExternalLink } from '../../../components/ExternalLink';
import { Icon } from '../../../components/Icon';
import { formatLongDate } from '../../../lib/dates';
import '../reports.css';

/**
 * The top of a covered report: address, completion, the staff's one-line headline, the listing,
 * what may be done with it (`actions`: Save and Share, side by side) and `children` (the
 * headline figures) under them.
 */
export function ReportHeader({
  request,
  actions,
  children,
}: {
  request: CoverageRequest;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const headline = request.summary?.headline?.trim();
  return (
    <header className="card report-header">
      <div className="report-header-top">
        <span className="icon-badge icon-badge-lg">
          <Icon name="home" size={28} />
        </span>
        <span className="report-badges">
          <span className="badge badge-green" data-testid="report-completed-badge">
            Completed
          </span>
        </span>
      </div>
      <h1 data-testid="report-address">{request.address}</h1>
      {headline && (
        <p className="report-headline" data-testid="report-headline">
          {headline}
        </p>
      )}
      <p className="muted report-meta">
        <Icon name="clock" size={16} /> Completed {formatLongDate(request.updated_at)}
      </p>
      {request.url && (
        <ExternalLink href={request.url} className="report-listing" testId="report-listing">
          View Original Listing <Icon name="external" size={14} />
        </ExternalLink>
      )}
      {children}
      {actions && <div className="report-header-actions">{actions}</div>}
    </header>
  );
}
