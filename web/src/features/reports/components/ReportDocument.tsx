import type { CoverageRequest } from '@homereport/contracts';
import { availableSections } from '../reportSections';
import { DocumentCard } from './OtherDocuments';
import { ReportHeader } from './ReportHeader';
import { ReportNotes } from './ReportNotes';
import '../reports.css';

/**
 * A covered report as a shared link shows it: address, completion, listing, its documents as
 * links and notes (the report page lays out the same header with the documents read in the page
 * and the ZIP context).
 */
export function ReportDocument({ request }: { request: CoverageRequest }) {
  const sections = availableSections(request);
  return (
    <>
      <ReportHeader request={request} />
      {sections.length > 0 ? (
        <div className="report-sections">
          {sections.map((section) => (
            <DocumentCard key={section.field} section={section} />
          ))}
        </div>
      ) : (
        <p className="card muted">The documents of this report are being prepared.</p>
      )}
      <ReportNotes notes={request.notes} />
    </>
  );
}
