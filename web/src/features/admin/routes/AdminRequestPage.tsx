import type { RequestStatus } from '@homereport/contracts';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isApiError } from '../../../api/client';
import { Alert } from '../../../components/Alert';
import { Card, Fact } from '../../../components/Card';
import { ExternalLink } from '../../../components/ExternalLink';
import { Icon } from '../../../components/Icon';
import { FailedScreen, StatusScreen } from '../../../components/ResultPanel';
import type { NavItem } from '../../../components/SiteHeader';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { StatusBadge } from '../../../components/StatusBadge';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { formatLongDateTime } from '../../../lib/dates';
import { REQUEST_STATUS_OPTIONS } from '../../../lib/requestStatus';
import { useAdminRequest, useUpdateStatus, useUploadReports } from '../api/adminRequest';
import { HeadlineFigures } from '../components/HeadlineFigures';
import { PropertyRequests } from '../components/PropertyRequests';
import { BANNER_HIDE_MS, useSuccessBanner } from '../components/SuccessBanner';
import { UploadDropzone } from '../components/UploadDropzone';
import { ACCEPTED_EXTENSIONS, CURRENT_FILES, planUpload } from '../reportFiles';
import '../admin.css';

/** No such request: 404, or 400 for an id that cannot be one. Anything else is a failed load. */
const isNotFound = (error: unknown) => isApiError(error) && (error.status === 404 || error.status === 400);

const TO_DASHBOARD = [{ to: '/admin', label: 'Back to Dashboard' }];

function BackToDashboard() {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="btn btn-secondary"
      onClick={() => navigate('/admin')}
      data-testid="back-to-dashboard"
    >
      <Icon name="arrowLeft" size={18} /> Back to Dashboard
    </button>
  );
}

export function AdminRequestPage() {
  const { id = '' } = useParams();
  useDocumentTitle(`Request #${id}`);
  const nav: NavItem[] = [
    { to: '/admin', label: 'Back to Dashboard', icon: 'arrowLeft' },
    { to: `/admin/request/${encodeURIComponent(id)}`, label: `Request #${id}` },
  ];
  const query = useAdminRequest(id);
  const updateStatus = useUpdateStatus(id);
  const upload = useUploadReports(id);
  const { banner, show, hide } = useSuccessBanner();
  const [refused, setRefused] = useState<string[]>([]);
  const request = query.data;

  function changeStatus(status: RequestStatus) {
    hide();
    upload.reset();
    updateStatus.mutate(status, { onSuccess: () => show(BANNER_HIDE_MS.status) });
  }

  function uploadFiles(files: File[]) {
    if (upload.isPending) return;
    const plan = planUpload(files);
    setRefused(plan.refused);
    if (plan.parts.length === 0) return;
    hide();
    updateStatus.reset();
    upload.mutate(plan.parts, { onSuccess: () => show(BANNER_HIDE_MS.upload) });
  }

  let body: ReactNode;
  if (request === undefined && isNotFound(query.error)) {
    body = (
      <StatusScreen testId="request-not-found" title="Request Not Found" links={TO_DASHBOARD}>
        <p className="muted">The request you're looking for doesn't exist or may have been removed.</p>
      </StatusScreen>
    );
  } else if (request === undefined && query.isError) {
    // Any other failure is an outage or a refusal, said as such: never "Not Found".
    body = <FailedScreen query={query} what="this request" testId="request-load-error" links={TO_DASHBOARD} />;
  } else if (request === undefined) {
    body = <PageSpinner label="Loading request" />;
  } else {
    const files = CURRENT_FILES.flatMap((file) => {
      const href = request[file.field];
      return href ? [{ ...file, href }] : [];
    });
    const actionError = updateStatus.error?.message ?? upload.error?.message ?? null;
    body = (
      <div className="container">
        <div className="page-heading-row">
          <div>
            <p className="eyebrow">Request Details</p>
            <h1 className="admin-request-title">{request.address}</h1>
          </div>
          <StatusBadge status={request.status} testId="request-status" />
        </div>

        {banner}
        {actionError && (
          <Alert kind="error" testId="action-error">
            {actionError}
          </Alert>
        )}

        <div className="admin-request-grid">
          <Card icon="file" title="Request Information" testId="request-information">
            <dl className="detail-list">
              <Fact label="Property Address" testId="request-address">
                {request.address}
              </Fact>
              {request.url && (
                <Fact label="Listing URL">
                  <ExternalLink href={request.url} className="detail-link">
                    {request.url} <Icon name="external" size={14} />
                  </ExternalLink>
                </Fact>
              )}
              <Fact label="Requested On" testId="request-created">
                {formatLongDateTime(request.created_at)}
              </Fact>
              {request.notes && (
                <div>
                  <dt>Additional Notes</dt>
                  <dd className="detail-notes">{request.notes}</dd>
                </div>
              )}
            </dl>
          </Card>

          <Card icon="settings" title="Update Status" testId="update-status">
            <div className="status-buttons">
              {REQUEST_STATUS_OPTIONS.map((option) => {
                // Covered spends users' credits on the report: the API refuses it without the file.
                const needsReport = option.status === 'covered' && !request.report_path;
                return (
                  <button
                    key={option.status}
                    type="button"
                    className={`btn ${request.status === option.status ? 'btn-primary' : 'btn-secondary'}`}
                    aria-pressed={request.status === option.status}
                    aria-describedby={needsReport ? 'covered-needs-report' : undefined}
                    disabled={updateStatus.isPending || needsReport}
                    onClick={() => changeStatus(option.status)}
                    data-testid={`status-${option.status}`}
                  >
                    {option.label}
                  </button>
                );
              })}
            </div>
            {!request.report_path && request.status !== 'covered' && (
              <p className="muted status-hint" id="covered-needs-report" data-testid="covered-needs-report">
                Upload the main report file first: a request is marked Covered only once its report can be read.
              </p>
            )}
          </Card>
        </div>

        <PropertyRequests request={request} />

        <HeadlineFigures
          request={request}
          onSaved={() => {
            updateStatus.reset();
            upload.reset();
            show(BANNER_HIDE_MS.status);
          }}
        />

        <Card icon="send" title="Upload Reports" testId="upload-reports" className="upload-card">
          <UploadDropzone uploading={upload.isPending} onFiles={uploadFiles} />
          <p className="muted upload-hint">
            The report type comes from the file name: a name containing “strategy” is the Investment Strategy, “school”
            the School District Report, “neighborhood” the Neighborhood Report; any other name is the Main Property
            Report. Uploading a type again replaces its file.
          </p>
          {refused.length > 0 && (
            <Alert kind="error" testId="upload-refused">
              Only {ACCEPTED_EXTENSIONS.join(', ')} files are accepted; not uploaded: {refused.join(', ')}
            </Alert>
          )}
        </Card>

        {files.length > 0 && (
          <Card icon="book" title="Current Files" testId="current-files">
            <ul className="list-rows">
              {files.map((file) => (
                <li key={file.field} className="list-row">
                  <span className="list-row-title">
                    <Icon name="file" size={18} /> {file.title}
                  </span>
                  <ExternalLink
                    href={file.href}
                    className="btn btn-secondary btn-sm"
                    testId={`current-file-${file.field.replace(/_path$/, '')}`}
                  >
                    Open <Icon name="external" size={16} />
                  </ExternalLink>
                </li>
              ))}
            </ul>
          </Card>
        )}

        <div className="actions">
          <BackToDashboard />
          {request.status === 'covered' && (
            <Link to="/properties" className="btn btn-primary" data-testid="view-on-properties">
              View on Properties Page
            </Link>
          )}
        </div>
      </div>
    );
  }

  return (
    <SiteLayout nav={nav}>
      <section className="section section-tight">{body}</section>
    </SiteLayout>
  );
}
