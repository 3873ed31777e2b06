import type { ReportSummary, ReportZipAnalysis } from '@homereport/contracts';
import { Suspense, lazy, useRef } from 'react';
import { Link } from 'react-router-dom';
import { ErrorBoundary } from '../../../components/ErrorBoundary';
import { Icon } from '../../../components/Icon';
import { Spinner } from '../../../components/Spinner';
import { useNearViewport } from '../../../hooks/useNearViewport';
import { valueAgainstMedian } from '../../../lib/reportFigures';
import { zipTier } from '../../../lib/zipCodes';
import { formatChange, formatRisk, formatUsd } from '../../zip/zipFormat';

// The chart library comes with the chart, after the figures (the ZIP pages' own chart).
const PriceTrendChart = lazy(() => import('../../zip/ZipCharts').then((m) => ({ default: m.PriceTrendChart })));

/**
 * The market around the property: its ZIP code's analysis in brief (tier, median price and rent,
 * the year's change, risk, the price trend), how the estimate compares, and the way to the full
 * analysis.
 */
export function ZipContext({ zip, summary }: { zip: ReportZipAnalysis; summary: ReportSummary | null | undefined }) {
  const tier = zipTier(zip.tier);
  const against = valueAgainstMedian(summary, zip);
  return (
    <section className="card report-zip" aria-labelledby="report-zip-title" data-testid="report-zip">
      <h2 id="report-zip-title" className="report-block-title">
        <span className="icon-badge icon-badge-sm">
          <Icon name="chart" size={18} />
        </span>
        The market in {zip.zip_code}
      </h2>
      <p className="report-zip-place">
        {zip.neighborhood ? `${zip.neighborhood}, ` : ''}
        {zip.city}, {zip.state}
      </p>
      <p className="report-zip-badges">
        <span className={`badge tier-badge tier-${tier.number}`} data-testid="report-zip-tier">
          {tier.name}
          {tier.label && ` · ${tier.label}`}
        </span>
        {zip.sample && <span className="badge report-sample">Sample analysis</span>}
      </p>
      <dl className="report-zip-figures">
        <div>
          <dt>Median price</dt>
          <dd data-testid="report-zip-median-price">{formatUsd(zip.median_price)}</dd>
        </div>
        <div>
          <dt>Median rent</dt>
          <dd data-testid="report-zip-median-rent">
            {formatUsd(zip.median_rent)}
            {zip.median_rent !== null && <span className="report-unit">/mo</span>}
          </dd>
        </div>
        <div>
          <dt>1-year appreciation</dt>
          <dd>{formatChange(zip.one_year_appreciation)}</dd>
        </div>
        <div>
          <dt>Risk</dt>
          <dd>{formatRisk(zip.risk_level)}</dd>
        </div>
      </dl>
      {against && (
        <p className="report-zip-against" data-testid="report-zip-against">
          This property’s estimated value is {against.charAt(0).toLowerCase()}
          {against.slice(1)}
        </p>
      )}
      {zip.monthly_prices.length > 1 && <TrendChart zip={zip} />}
      <Link to={`/zip/${zip.zip_code}`} className="report-zip-link" data-testid="report-zip-link">
        Full analysis of {zip.zip_code} <span aria-hidden="true">→</span>
      </Link>
    </section>
  );
}

/** The ZIP's price trend; its chart's code loads when the chart is about to be seen (below the report on a phone). */
function TrendChart({ zip }: { zip: ReportZipAnalysis }) {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref);
  // A spinner while its code loads; before that, while still far below, an empty box of its size.
  const loading = (
    <div className="report-chart-placeholder">
      <Spinner label="Loading the price trend" />
    </div>
  );
  return (
    <div ref={ref}>
      {near ? (
        <ErrorBoundary fallback={null}>
          <Suspense fallback={loading}>
            <PriceTrendChart
              monthly={zip.monthly_prices}
              height={170}
              caption={`Median sale price in ${zip.zip_code}, last ${zip.monthly_prices.length} months`}
            />
          </Suspense>
        </ErrorBoundary>
      ) : (
        <div className="report-chart-placeholder" />
      )}
    </div>
  );
}
