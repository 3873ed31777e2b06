import type { CoverageRequest } from '@homereport/contracts';
import type { ReactNode } from 'react';
import { ExternalLink } from '../../../components/ExternalLink';
import { Icon } from '../../../components/Icon';
import { formatLongDate } from '../../../lib/dates';
import { availableSections } from '../reportSections';
import '../reports.css';

/**
 * A covered report as a reader sees it: address, completion, listing, its documents and notes.
 * The report page and a shared link's page both show it; `actions` go in the header (what the
 * reader may do with the report there, such as sharing it), `children` after the notes.
 */
export function ReportDocument({
  request,
  actions,
  children,
}: {
  request: CoverageRequest;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const sections = availableSections(request);
  return (
    <>
      <header className="card report-header">
        <div className="report-header-top">
          <span className="icon-badge icon-badge-lg">
            <Icon name="home" size={28} />
          </span>
          <span className="badge badge-green" data-testid="report-completed-badge">
            Completed
          </span>
        </div>
        <h1 data-testid="report-address">{request.address}</h1>
        <p className="muted report-meta">
          <Icon name="clock" size={16} /> Completed {formatLongDate(request.updated_at)}
        </p>
        {request.url && (
          <ExternalLink href={request.url} className="report-listing" testId="report-listing">
            View Original Listing <Icon name="external" size={14} />
          </ExternalLink>
        )}
        {actions && <div className="report-header-actions">{actions}</div>}
      </header>

      {sections.length > 0 ? (
        <div className="report-sections">
          {sections.map((section) => (
            <ExternalLink
              key={section.field}
              href={section.href}
              className="card report-section"
              testId={`report-section-${section.field.replace(/_path$/, '')}`}
            >
              <span className="icon-badge">
                <Icon name="file" />
              </span>
              <span className="report-section-text">
                <strong>{section.title}</strong>
                <span className="muted">{section.description}</span>
              </span>
              <span className="report-section-open">
                Open <Icon name="external" size={16} />
              </span>
            </ExternalLink>
          ))}
        </div>
      ) : (
        <p className="card muted">The documents of this report are being prepared.</p>
      )}

      {request.notes && (
        <section className="card report-notes" data-testid="report-notes">
          <h2 className="card-title">Additional Notes</h2>
          <p>{request.notes}</p>
        </section>
      )}
      {children}
    </>
  );
}
