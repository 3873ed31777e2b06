import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isApiError } from '../../../api/client';
import { isRefusal } from '../../../components/QueryState';
import { FailedScreen, StatusScreen } from '../../../components/ResultPanel';
import { SaveStar } from '../../../components/SaveStar';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { useReportView } from '../api/reportView';
import { MainReport } from '../components/MainReport';
import { MoreReports } from '../components/MoreReports';
import { OtherDocuments } from '../components/OtherDocuments';
import { PropertyMap } from '../components/PropertyMap';
import { ReportFigures } from '../components/ReportFigures';
import { ReportHeader } from '../components/ReportHeader';
import { ReportNotes } from '../components/ReportNotes';
import { ShareReport } from '../components/ShareReport';
import { ZipContext } from '../components/ZipContext';

/** Where a report screen without a report sends the reader instead. */
const AWAY = [
  { to: '/properties', label: 'Browse Reports' },
  { to: '/dashboard', label: 'Go to Dashboard' },
];

export function ReportPage() {
  const { id = '' } = useParams();
  const report = useReportView(id);
  const request = report.data?.request;
  const notFound =
    (report.isError && isApiError(report.error) && report.error.status === 404) ||
    (request !== undefined && request.status !== 'covered');
  useDocumentTitle(request && !notFound ? request.address : 'Property Report');

  let body: ReactNode;
  if (report.isPending) {
    body = <PageSpinner label="Loading report" />;
  } else if (notFound) {
    body = (
      <StatusScreen testId="report-not-found" title="Report Not Found" links={AWAY}>
        <p className="muted">This report does not exist or is not completed yet.</p>
      </StatusScreen>
    );
  } else if (report.isError && isRefusal(report.error)) {
    // The server's own answer (no credits left, for one): its words, no Retry that cannot help.
    body = (
      <StatusScreen testId="report-error" title="Unable to Load Report" links={AWAY}>
        <p className="report-error-text" data-testid="report-error-message">
          {report.error.message}
        </p>
      </StatusScreen>
    );
  } else if (report.isError) {
    body = (
      <FailedScreen
        query={report}
        what="this report"
        testId="report-load-failed"
        links={[{ to: '/dashboard', label: 'Go to Dashboard' }]}
      />
    );
  } else if (request && report.data) {
    const { documents, zip_analysis: zip } = report.data;
    const zipCode = request.zip_code ?? null;
    body = (
      <div className="container report-container report-page" data-testid="report">
        <Link to="/properties" className="back-link">
          <span aria-hidden="true">←</span> Back to Reports
        </Link>
        <ReportHeader
          request={request}
          actions={
            <>
              <SaveStar request={request} />
              <ShareReport requestId={request.id} />
            </>
          }
        >
          <ReportFigures summary={request.summary} />
        </ReportHeader>
        <div className={zip || zipCode ? 'report-layout' : 'report-layout report-layout-single'}>
          <div className="report-primary">
            {request.report_path ? (
              <MainReport href={request.report_path} info={documents.find((d) => d.type === 'report')} />
            ) : (
              <p className="card muted">The documents of this report are being prepared.</p>
            )}
            <OtherDocuments request={request} documents={documents} />
            <ReportNotes notes={request.notes} />
          </div>
          {(zip || zipCode) && (
            <aside className="report-context" aria-label="The property in context">
              {zip && <ZipContext zip={zip} summary={request.summary} />}
              {zipCode && <PropertyMap id={request.id} address={request.address} zipCode={zipCode} />}
            </aside>
          )}
        </div>
        <MoreReports request="Request Another Property" />
      </div>
    );
  }

  return (
    <SiteLayout>
      <section className="section section-tight">{body}</section>
    </SiteLayout>
  );
}
