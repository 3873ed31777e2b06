import { type DragEvent, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { isApiError } from '../../../api/client';
import { AccountBar } from '../../../components/AccountBar';
import { Alert } from '../../../components/Alert';
import { Icon } from '../../../components/Icon';
import type { NavItem } from '../../../components/SiteHeader';
import { SiteLayout } from '../../../components/SiteLayout';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { formatBytes } from '../../../lib/bytes';
import { useZipImport } from '../api/zipImport';
import { ImportReport } from '../components/ImportReport';
import { importFailureMessage, importFileProblem, percentSent } from '../zipImport';
import '../admin.css';
import '../zipImport.css';

const nav: NavItem[] = [
  { to: '/admin', label: 'Back to Dashboard', icon: 'arrowLeft' },
  { to: '/zip', label: 'ZIP Code Analysis' },
];

/**
 * /admin/zip-import: an admin picks or drops a .json file of ZIP code analyses, sees it upload,
 * then reads what was imported and what was refused, and why. The same import as the operator
 * command `npm run zip:import`, from the browser.
 */
export function ZipImportPage() {
  useDocumentTitle('Import ZIP Code Analyses');
  const inputId = useId();
  const upload = useZipImport();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const busy = upload.isPending;

  function choose(files: FileList | null | undefined) {
    const picked = files?.[0];
    if (!picked || busy) return;
    upload.reset();
    const refusal = importFileProblem(picked);
    setProblem(refusal);
    setFile(refusal ? null : picked);
  }

  function onDragOver(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    event.dataTransfer.dropEffect = busy ? 'none' : 'copy';
    if (!busy) setDragging(true);
  }

  const error = upload.error;
  const failure = error
    ? importFailureMessage(
        isApiError(error)
          ? { status: error.status, error: error.message, networkError: error.networkError }
          : { status: 0, error: 'The import failed.', networkError: false },
      )
    : null;
  const sent = upload.progress ? percentSent(upload.progress) : null;

  return (
    <SiteLayout nav={nav}>
      <section className="section section-tight">
        <div className="container">
          <AccountBar eyebrow="Admin">
            <h1>Import ZIP Code Analyses</h1>
          </AccountBar>
          <p className="zip-import-lead muted">
            A .json file holding a JSON array of ZIP code analyses, each in the detail shape of the ZIP pages. Each
            record that passes the checks replaces the stored analysis of its ZIP code; the others are listed below with
            the reasons.
          </p>

          <section className="card zip-import-card" aria-labelledby="zip-import-file-title">
            <h2 className="card-title" id="zip-import-file-title">
              <Icon name="file" /> Choose a file
            </h2>
            <label
              htmlFor={inputId}
              className={`dropzone${dragging ? ' dropzone-active' : ''}${busy ? ' dropzone-busy' : ''}`}
              onDragOver={onDragOver}
              onDragEnter={onDragOver}
              onDragLeave={() => setDragging(false)}
              onDrop={(event) => {
                event.preventDefault();
                setDragging(false);
                choose(event.dataTransfer?.files);
              }}
              data-testid="import-dropzone"
            >
              <input
                id={inputId}
                type="file"
                accept=".json,application/json"
                disabled={busy}
                className="visually-hidden"
                onChange={(event) => {
                  choose(event.target.files);
                  // Choosing the same file again (after fixing it) must fire a change.
                  event.target.value = '';
                }}
                data-testid="import-input"
              />
              <span className="icon-badge icon-badge-lg">
                <Icon name="file" size={28} />
              </span>
              <strong>Drag and drop a .json file here, or click to choose</strong>
              <span className="muted">One file at a time; a JSON array of ZIP code analyses</span>
            </label>

            {problem && (
              <Alert kind="error" testId="import-file-problem">
                {problem}
              </Alert>
            )}

            {file && (
              <div className="zip-import-chosen" data-testid="import-chosen">
                <p>
                  <strong data-testid="import-file-name">{file.name}</strong>{' '}
                  <span className="muted">{formatBytes(file.size)}</span>
                </p>
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={busy}
                  onClick={() => upload.mutate(file)}
                  data-testid="import-submit"
                >
                  <Icon name="file" size={18} /> {busy ? 'Importing…' : 'Import'}
                </button>
              </div>
            )}

            {busy && (
              <div className="zip-import-progress" data-testid="import-progress" aria-live="polite">
                <progress
                  max={100}
                  value={sent ?? undefined}
                  aria-label="Upload progress"
                  data-testid="import-progress-bar"
                />
                <p className="muted" data-testid="import-progress-text">
                  {sent === null || sent >= 100
                    ? 'Uploaded; the server is checking and storing the analyses…'
                    : `Uploading: ${sent}% (${formatBytes(upload.progress?.loaded ?? 0)} of ${formatBytes(upload.progress?.total ?? 0)})`}
                </p>
              </div>
            )}

            {failure && (
              <Alert kind="error" testId="import-failed">
                {failure}
              </Alert>
            )}
          </section>

          {upload.data && file && <ImportReport report={upload.data} fileName={file.name} />}

          <p className="zip-import-footnote muted">
            Operators can import the same files from a shell with <code>npm run zip:import</code>.{' '}
            <Link to="/zip">See the ZIP code analyses</Link>
          </p>
        </div>
      </section>
    </SiteLayout>
  );
}
