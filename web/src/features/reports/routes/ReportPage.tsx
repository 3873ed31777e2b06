import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isApiError } from '../../../api/client';
import { QueryFailed, isRefusal } from '../../../components/QueryState';
import { SaveStar } from '../../../components/SaveStar';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { useReportView } from '../api/reportView';
import { ReportDocument } from '../components/ReportDocument';
import { ReportMessage } from '../components/ReportMessage';
import { ShareReport } from '../components/ShareReport';

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
        <QueryFailed query={report} what="this report" testId="report-load-failed" />
        <div className="actions">
          <Link to="/dashboard" className="btn btn-secondary">
            Go to Dashboard
          </Link>
        </div>
      </div>
    );
  } else if (request) {
    body = (
      <div className="container report-container" data-testid="report">
        <Link to="/properties" className="back-link">
          <span aria-hidden="true">←</span> Back to Reports
        </Link>
        <ReportDocument
          request={request}
          actions={
            <>
              <SaveStar request={request} />
              <ShareReport requestId={request.id} />
            </>
          }
        />
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
