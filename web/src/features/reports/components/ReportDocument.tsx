import type { CoverageRequest } from '@homereport/contracts';
import type { ReactNode } from 'react';
import { ExternalLink } from '../../../components/ExternalLink';
import { Icon } from '../../../components/Icon';
import { availableSections } from '../reportSections';
import { ReportHeader } from './ReportHeader';
import '../reports.css';

/**
 * A covered report as a shared link shows it: address, completion, listing, its documents as
 * links and notes (the report page lays out the same header with the documents read in the page
 * and the ZIP context). `actions` go in the header, `children` after the notes.
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
      <ReportHeader request={request} actions={actions} />

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
