import type { CoverageRequest } from '@homereport/contracts';
import { useParams } from 'react-router-dom';
import { isApiError } from '../../../api/client';
import { FailedScreen, StatusScreen } from '../../../components/ResultPanel';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { useSharedReport } from '../api/share';
import { MoreReports } from '../components/MoreReports';
import { ReportDocument } from '../components/ReportDocument';

const BROWSE = { to: '/properties', label: 'Browse Reports' };

const statusOf = (error: unknown) => (isApiError(error) && !error.networkError ? error.status : null);

/** What the shared page reads of its query (a TanStack Query result fits). */
export interface SharedReportQuery {
  data: CoverageRequest | undefined;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * The shared page's content for each state of its read: loading; a revoked or expired link
 * (410) and an unknown one (404), each in its own words; an outage, with Retry; the report.
 */
export function SharedReportBody({ shared }: { shared: SharedReportQuery }) {
  const request = shared.data;
  const status = statusOf(shared.error);
  if (request) {
    return (
      <div className="container report-container" data-testid="shared-report">
        <p className="muted shared-report-note" data-testid="shared-report-note">
          Someone shared this HomeReport property report with you.
        </p>
        <ReportDocument request={request} />
        <MoreReports request="Request a Report" />
      </div>
    );
  }
  if (status === 410) {
    return (
      <StatusScreen
        testId="shared-report-gone"
        title="This link was revoked or has expired"
        links={[BROWSE, { to: '/register', label: 'Create an Account' }]}
      >
        <p className="muted">Ask the person who shared this report with you for a new link.</p>
      </StatusScreen>
    );
  }
  if (status === 404) {
    return (
      <StatusScreen testId="shared-report-not-found" title="Shared Report Not Found" links={[BROWSE]}>
        <p className="muted">This link does not lead to a report. Check that it was copied whole.</p>
      </StatusScreen>
    );
  }
  if (shared.error) {
    return <FailedScreen query={shared} what="this shared report" testId="shared-report-load-failed" />;
  }
  return <PageSpinner label="Loading shared report" />;
}

/**
 * /shared/:token: a report someone shared, for anyone holding the link, signed in or not. No
 * credit is spent and no view recorded.
 */
export function SharedReportPage() {
  const { token = '' } = useParams();
  const shared = useSharedReport(token);
  useDocumentTitle(
    shared.data ? `${shared.data.address} (shared report)` : 'Shared Report',
    'A HomeReport property assessment shared with you: valuation, market analysis and neighborhood insights for one U.S. home.',
  );
  return (
    <SiteLayout>
      <section className="section section-tight">
        <SharedReportBody shared={shared} />
      </section>
    </SiteLayout>
  );
}
