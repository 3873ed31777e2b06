import type { CoverageRequest, ReportDocumentInfo } from '@homereport/contracts';
import { ExternalLink } from '../../../components/ExternalLink';
import { Icon } from '../../../components/Icon';
import { type ReportSection, availableSections } from '../reportSections';
import { fileDescription } from './MainReport';

/** One document of a report as a card that opens its file; `info` adds the file's kind and size. */
export function DocumentCard({
  section,
  info,
}: { section: ReportSection & { href: string }; info?: ReportDocumentInfo | undefined }) {
  return (
    <ExternalLink
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
        {info && <span className="report-file-kind">{fileDescription(info)}</span>}
      </span>
      <span className="report-section-open">
        Open <Icon name="external" size={16} />
      </span>
    </ExternalLink>
  );
}

/** The report's other documents (strategy, schools, neighborhood) as cards that open each file. */
export function OtherDocuments({ request, documents }: { request: CoverageRequest; documents: ReportDocumentInfo[] }) {
  const sections = availableSections(request).filter((section) => section.field !== 'report_path');
  if (sections.length === 0) return null;
  return (
    <section className="report-others" aria-labelledby="report-others-title" data-testid="report-documents">
      <h2 id="report-others-title" className="report-block-title">
        More in this report
      </h2>
      <div className="report-sections">
        {sections.map((section) => (
          <DocumentCard
            key={section.field}
            section={section}
            info={documents.find((d) => d.type === section.field.replace(/_path$/, ''))}
          />
        ))}
      </div>
    </section>
  );
}
