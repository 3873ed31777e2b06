import type { ZipListItem } from '@homereport/contracts';
import { memo } from 'react';
import { Icon } from '../../../components/Icon';
import { zipTier } from '../../../lib/zipCodes';
import { formatPercent, formatRisk, formatText, formatUsd } from '../zipFormat';

export function TierBadge({ tier, testId }: { tier: string; testId?: string }) {
  const { number, badge } = zipTier(tier);
  return (
    <span className={`badge tier-badge tier-${number}`} title={tier} data-testid={testId}>
      {badge}
    </span>
  );
}

export function SampleNote() {
  return (
    <span
      className="sample-note"
      title="Generated figures that show what an analysis looks like; not research."
      data-testid="sample-note"
    >
      Sample analysis
    </span>
  );
}

export function RiskBadge({ level }: { level: string | null | undefined }) {
  return <span className={`risk risk-${level ?? 'unknown'}`}>{formatRisk(level)}</span>;
}

/** One ZIP code of /zip, in the grid or the list layout; every field spec section 2 lists. */
export const ZipCard = memo(function ZipCard({
  zip,
  layout,
  onOpen,
}: {
  zip: ZipListItem;
  layout: 'grid' | 'list';
  onOpen: (zip: ZipListItem) => void;
}) {
  const { location, marketFundamentals: market } = zip;
  return (
    <article className={`card zip-card zip-card-${layout}`} data-testid="zip-card" data-zip={zip.zipCode}>
      <header className="zip-card-head">
        <div>
          <h3 className="zip-card-code">
            <Icon name="pin" size={18} /> {zip.zipCode}
          </h3>
          <p className="zip-card-place">
            {location.city}, {location.state}
          </p>
          <p className="zip-card-neighborhood">{formatText(location.neighborhood)}</p>
        </div>
        <div className="zip-card-badges">
          <TierBadge tier={zip.tier} />
          {zip.sample && <SampleNote />}
        </div>
      </header>
      <dl className="zip-card-figures">
        <div>
          <dt>Median Price</dt>
          <dd data-testid="zip-card-price">{formatUsd(market.medianSalePrice.value)}</dd>
        </div>
        <div>
          <dt>Appreciation</dt>
          <dd data-testid="zip-card-appreciation">{formatPercent(market.annualAppreciationRate.oneYear)}</dd>
        </div>
        <div>
          <dt>Risk Level</dt>
          <dd>
            <RiskBadge level={zip.executiveSummary.riskLevel} />
          </dd>
        </div>
      </dl>
      <p className="zip-card-profile">{formatText(zip.investmentProfile)}</p>
      <button type="button" className="btn btn-primary zip-card-open" onClick={() => onOpen(zip)}>
        View Full Analysis <Icon name="arrowRight" size={18} />
      </button>
    </article>
  );
});
