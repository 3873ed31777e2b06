import type { ZipAnalysis } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { Icon } from '../../../../components/Icon';
import { formatReportDate, formatText } from '../../zipFormat';
import { WatchZipButton } from '../WatchZipButton';
import { SampleNote, TierBadge } from '../ZipCard';

/** The top of a ZIP code's page: its code, tier, place and report details. */
export function ZipHeader({ analysis }: { analysis: ZipAnalysis }) {
  const meta = analysis.reportMetadata;
  return (
    <section className="page-hero zip-hero">
      <div className="container">
        <Link to="/zip" className="back-link">
          <span aria-hidden="true">←</span> Browse Other ZIP Codes
        </Link>
        <div className="zip-hero-title">
          <h1 data-testid="zip-detail-code">ZIP Code {analysis.zipCode}</h1>
          <TierBadge tier={meta.tier} testId="zip-detail-tier" />
          {meta.sample && <SampleNote />}
          <WatchZipButton zipCode={analysis.zipCode} />
        </div>
        <p className="zip-hero-place" data-testid="zip-detail-place">
          {meta.location.city}, {meta.location.state}
        </p>
        <dl className="zip-hero-meta">
          <div>
            <dt>Report Date</dt>
            <dd>{formatReportDate(meta.reportDate)}</dd>
          </div>
          <div>
            <dt>Neighborhood</dt>
            <dd>{formatText(meta.location.neighborhood)}</dd>
          </div>
          <div>
            <dt>Investment Profile</dt>
            <dd>{formatText(meta.investmentProfile)}</dd>
          </div>
        </dl>
        {meta.sample && (
          <p className="zip-sample-banner" data-testid="zip-sample-banner">
            <Icon name="alert" size={16} /> Sample analysis: the figures are generated to show what an analysis looks
            like; they are not research on this ZIP code.
          </p>
        )}
      </div>
    </section>
  );
}
