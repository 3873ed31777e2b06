import type { ReportSummary } from '@homereport/contracts';
import { figureLines } from '../lib/reportFigures';
import './shared.css';

/**
 * A report's headline figures and its one-line headline (api.md "Report summary"), as a short
 * list of labelled values; nothing at all when none were entered, so a card without them reads
 * as it did.
 */
export function ReportFigures({ summary, testId }: { summary: ReportSummary | null | undefined; testId: string }) {
  const lines = figureLines(summary);
  if (lines.length === 0 && !summary?.headline) return null;
  return (
    <div className="report-figures" data-testid={testId}>
      {summary?.headline && (
        <p className="report-figures-headline" data-testid={`${testId}-headline`}>
          {summary.headline}
        </p>
      )}
      {lines.length > 0 && (
        <dl className="report-figures-list">
          {lines.map((line) => (
            <div
              key={line.key}
              className={`report-figure report-figure-${line.key}`}
              data-testid={`${testId}-${line.key}`}
            >
              <dt>{line.label}</dt>
              <dd>{line.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
