import type { ReportSummary } from '@homereport/contracts';
import { reportFigures } from '../../../lib/reportFigures';

/** The headline figures under the address; nothing at all when staff entered none. */
export function ReportFigures({ summary }: { summary: ReportSummary | null | undefined }) {
  const figures = reportFigures(summary);
  if (figures.length === 0) return null;
  return (
    <dl className="report-stats" data-testid="report-figures">
      {figures.map((figure) => (
        <div key={figure.key} className="report-stat">
          <dt>{figure.label}</dt>
          <dd data-testid={`report-figure-${figure.key}`}>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}
