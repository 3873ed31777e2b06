import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isApiError } from '../../../api/client';
import { LoadFailed } from '../../../components/QueryState';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { useSharedReport } from '../api/share';
import { ReportDocument } from '../components/ReportDocument';
import { ReportMessage } from '../components/ReportMessage';

const statusOf = (error: unknown) => (isApiError(error) && !error.networkError ? error.status : null);

/**
 * /shared/:token: a report someone shared, for anyone holding the link, signed in or not. No
 * credit is spent and no view recorded. A revoked or expired link (410) and an unknown one (404)
 * each say so; an outage says it could not load, with Retry.
 */
export function SharedReportPage() {
  const { token = '' } = useParams();
  const shared = useSharedReport(token);
  const request = shared.data;
  const status = statusOf(shared.error);
  useDocumentTitle(request ? `${request.address} (shared report)` : 'Shared Report');

  let body: ReactNode;
  if (shared.isPending) {
    body = <PageSpinner label="Loading shared report" />;
  } else if (status === 410) {
    body = (
      <ReportMessage
        testId="shared-report-gone"
        title="This link was revoked or has expired"
        links={[
          { to: '/properties', label: 'Browse Reports' },
          { to: '/register', label: 'Create an Account' },
        ]}
      >
        <p className="muted">Ask the person who shared this report with you for a new link.</p>
      </ReportMessage>
    );
  } else if (status === 404) {
    body = (
      <ReportMessage
        testId="shared-report-not-found"
        title="Shared Report Not Found"
        links={[{ to: '/properties', label: 'Browse Reports' }]}
      >
        <p className="muted">This link does not lead to a report. Check that it was copied whole.</p>
      </ReportMessage>
    );
  } else if (shared.isError) {
    body = (
      <div className="container narrow">
        <LoadFailed
          what="this shared report"
          error={shared.error}
          onRetry={() => void shared.refetch()}
          retrying={shared.isFetching}
          testId="shared-report-load-failed"
        />
      </div>
    );
  } else if (request) {
    body = (
      <div className="container report-container" data-testid="shared-report">
        <p className="muted shared-report-note" data-testid="shared-report-note">
          Someone shared this HomeReport property report with you.
        </p>
        <ReportDocument request={request} />
        <div className="actions">
          <Link to="/properties" className="btn btn-secondary">
            Browse More Reports
          </Link>
          <Link to="/request" className="btn btn-primary">
            Request a Report
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
