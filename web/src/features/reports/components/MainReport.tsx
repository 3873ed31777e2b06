import type { ReportDocumentInfo } from '@homereport/contracts';
import { Suspense, lazy } from 'react';
import { ErrorBoundary } from '../../../components/ErrorBoundary';
import { ExternalLink } from '../../../components/ExternalLink';
import { Icon } from '../../../components/Icon';
import { Spinner } from '../../../components/Spinner';
import { formatBytes } from '../../../lib/bytes';
import { REPORT_SECTIONS } from '../reportSections';

// PDF.js and the viewer arrive in chunks of their own, after the page's text and figures.
const PdfViewer = lazy(() => import('./PdfViewer'));

const FORMAT_NAMES = { pdf: 'PDF', doc: 'Word document', docx: 'Word document' } as const;

/** "PDF, 240.0 KB": what the link opens. */
export function fileDescription(info: ReportDocumentInfo | undefined): string {
  if (!info) return '';
  const name = info.format ? FORMAT_NAMES[info.format] : 'Document';
  return info.size > 0 ? `${name}, ${formatBytes(info.size)}` : name;
}

function DownloadNote({ href, reason }: { href: string; reason: string }) {
  return (
    <div className="report-download-note" data-testid="report-download-fallback">
      <span className="icon-badge">
        <Icon name="file" />
      </span>
      <p>
        {reason}{' '}
        <a href={href} target="_blank" rel="noopener noreferrer">
          Download the report
        </a>
        .
      </p>
    </div>
  );
}

/**
 * The main report, read in the page: a PDF drawn page by page (PdfViewer), a Word document (which
 * a browser cannot show) or a PDF that could not be drawn offered for download instead. The
 * link to the file itself stays in the card's head either way.
 */
export function MainReport({ href, info }: { href: string; info: ReportDocumentInfo | undefined }) {
  const section = REPORT_SECTIONS[0];
  const title = section?.title ?? 'Property Report';
  const isPdf = info?.format === 'pdf';
  const failed = (
    <DownloadNote href={href} reason="This report could not be shown in the page; it opens in your PDF reader." />
  );
  return (
    <section className="card report-main" aria-labelledby="report-main-title" data-testid="report-main">
      <div className="report-main-head">
        <div className="report-main-title">
          <h2 id="report-main-title" className="card-title">
            {title}
          </h2>
          <p className="muted">{section?.description}</p>
        </div>
        <ExternalLink href={href} className="btn btn-secondary btn-sm report-open" testId="report-section-report">
          {isPdf ? 'Open PDF' : 'Download'} <Icon name="external" size={14} />
          <span className="visually-hidden"> ({fileDescription(info) || title})</span>
        </ExternalLink>
      </div>
      {isPdf ? (
        <ErrorBoundary fallback={failed}>
          <Suspense
            fallback={
              <div className="pdf-frame-placeholder">
                <Spinner label="Loading the report viewer" />
              </div>
            }
          >
            <PdfViewer url={href} title={title} fallback={failed} />
          </Suspense>
        </ErrorBoundary>
      ) : (
        <DownloadNote
          href={href}
          reason={
            info?.format
              ? 'This report is a Word document, which opens in your word processor rather than in the page.'
              : 'This report opens in its own application.'
          }
        />
      )}
    </section>
  );
}
