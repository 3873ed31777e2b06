import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isApiError } from '../../../api/client';
import { ExternalLink } from '../../../components/ExternalLink';
import { Icon } from '../../../components/Icon';
import { LoadFailed, isRefusal } from '../../../components/QueryState';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { formatLongDate } from '../../../lib/dates';
import { useReportView } from '../api/reportView';
import { availableSections } from '../reportSections';
import '../reports.css';

function ReportMessage({
  testId,
  title,
  children,
  links,
}: {
  testId: string;
  title: string;
  children: ReactNode;
  links: { to: string; label: string }[];
}) {
  return (
    <div className="container narrow">
      <div className="card placeholder-card" data-testid={testId}>
        <span className="icon-badge icon-badge-lg">
          <Icon name="alert" size={28} />
        </span>
        <h1>{title}</h1>
        {children}
        <div className="actions center">
          {links.map((link, index) => (
            <Link key={link.to} to={link.to} className={`btn ${index === 0 ? 'btn-primary' : 'btn-secondary'}`}>
              {link.label}
            </Link>
          ))}
        </div>
      </div>
    </div>
  );
}

export function ReportPage() {
  const { id = '' } = useParams();
  const report = useReportView(id);
  const request = report.data;
  const notFound =
    (report.isError && isApiError(report.error) && report.error.status === 404) ||
    (request !== undefined && request.status !== 'covered');
  useDocumentTitle(request && !notFound ? request.address : 'Property Report');

  let body: ReactNode;
  if (report.isPending) {
    body = <PageSpinner label="Loading report" />;
  } else if (notFound) {
    body = (
      <ReportMessage
        testId="report-not-found"
        title="Report Not Found"
        links={[
          { to: '/properties', label: 'Browse Reports' },
          { to: '/dashboard', label: 'Go to Dashboard' },
        ]}
      >
        <p className="muted">This report does not exist or is not completed yet.</p>
      </ReportMessage>
    );
  } else if (report.isError && isRefusal(report.error)) {
    // The server's own answer (no credits left, for one): its words, no Retry that cannot help.
    body = (
      <ReportMessage
        testId="report-error"
        title="Unable to Load Report"
        links={[
          { to: '/properties', label: 'Browse Reports' },
          { to: '/dashboard', label: 'Go to Dashboard' },
        ]}
      >
        <p className="report-error-text" data-testid="report-error-message">
          {report.error.message}
        </p>
      </ReportMessage>
    );
  } else if (report.isError) {
    body = (
      <div className="container narrow">
        <LoadFailed
          what="this report"
          error={report.error}
          onRetry={() => void report.refetch()}
          retrying={report.isFetching}
          testId="report-load-failed"
        />
        <div className="actions">
          <Link to="/dashboard" className="btn btn-secondary">
            Go to Dashboard
          </Link>
        </div>
      </div>
    );
  } else if (request) {
    const sections = availableSections(request);
    body = (
      <div className="container report-container" data-testid="report">
        <Link to="/properties" className="back-link">
          <span aria-hidden="true">←</span> Back to Reports
        </Link>
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

        <div className="actions">
          <Link to="/properties" className="btn btn-secondary">
            Browse More Reports
          </Link>
          <Link to="/request" className="btn btn-primary">
            Request Another Property
          </Link>
        </div>
      </div>
    );
  }

  return (
    <SiteLayout>
      <section className="section section-tight">{body}</section>
    </SiteLayout>
  );
}
