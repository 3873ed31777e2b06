import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isApiError } from '../../../api/client';
import { QueryFailed, isRefusal } from '../../../components/QueryState';
import { SaveStar } from '../../../components/SaveStar';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { useReportView } from '../api/reportView';
import { MainReport } from '../components/MainReport';
import { OtherDocuments } from '../components/OtherDocuments';
import { PropertyMap } from '../components/PropertyMap';
import { ReportFigures } from '../components/ReportFigures';
import { ReportHeader } from '../components/ReportHeader';
import { ReportMessage } from '../components/ReportMessage';
import { ShareReport } from '../components/ShareReport';
import { ZipContext } from '../components/ZipContext';

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
            {request.notes && (
              <section className="card report-notes" data-testid="report-notes">
                <h2 className="card-title">Additional Notes</h2>
                <p>{request.notes}</p>
              </section>
            )}
          </div>
          {(zip || zipCode) && (
            <aside className="report-context" aria-label="The property in context">
              {zip && <ZipContext zip={zip} summary={request.summary} />}
              {zipCode && <PropertyMap id={request.id} address={request.address} zipCode={zipCode} />}
            </aside>
          )}
        </div>
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
