import type { CoverageRequest } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { ExternalLink } from '../../../components/ExternalLink';
import { Icon } from '../../../components/Icon';
import { ReportFigures } from '../../../components/ReportFigures';
import { SaveStar } from '../../../components/SaveStar';
import { formatLongDate } from '../../../lib/dates';
import { countOf } from '../../../lib/plural';
import { hasFigures } from '../../../lib/reportFigures';
import type { ZipTier } from '../../../lib/zipCodes';

const features = [
  'Property valuation & market analysis',
  'Investment strategy & ROI',
  'School & neighborhood insights',
];

/** The card's ZIP code, with its investment tier when an analysis of it exists, linked to that analysis. */
function ZipLine({ zip, tier }: { zip: string; tier: ZipTier | undefined }) {
  return (
    <p className="property-zip" data-testid="property-zip">
      <Icon name="pin" size={16} />
      <Link to={`/zip/${zip}`} className="property-zip-link">
        ZIP {zip}
      </Link>
      {tier && (
        <span className={`tier-pill tier-pill-${tier.number}`} data-testid="property-zip-tier">
          {tier.name}
          {tier.label ? ` · ${tier.label}` : ''}
        </span>
      )}
    </p>
  );
}

/**
 * One available report on /properties: its headline figures when staff entered some (else what
 * every report holds), and its ZIP code's tier when that ZIP code has an analysis.
 */
export function PropertyCard({
  property,
  tier,
  onOpen,
}: { property: CoverageRequest; tier?: ZipTier | undefined; onOpen: () => void }) {
  const figures = hasFigures(property.summary);
  return (
    <article className="card property-card" data-testid="property-card" data-id={property.id}>
      <div className="property-card-head">
        <span className="icon-badge">
          <Icon name="home" />
        </span>
        <span className="property-card-tags">
          <SaveStar request={property} />
          <span className="badge badge-green">Available</span>
        </span>
      </div>
      <h3 className="property-address">{property.address}</h3>
      {property.url && (
        <ExternalLink href={property.url} className="property-listing">
          View Listing <Icon name="external" size={14} />
        </ExternalLink>
      )}
      {property.zip_code && <ZipLine zip={property.zip_code} tier={tier} />}
      <ReportFigures summary={property.summary} testId="property-figures" />
      <p className="property-date">
        <Icon name="clock" size={16} /> Report completed {formatLongDate(property.updated_at)}
      </p>
      {property.requests_count !== undefined && (
        <p className="property-date" data-testid="property-requests-count">
          <Icon name="users" size={16} /> {countOf(property.requests_count, 'request')}
        </p>
      )}
      {/* With figures, the card says this report's; without, what every report holds. */}
      {figures ? (
        <div className="property-features" />
      ) : (
        <ul className="check-list property-features">
          {features.map((feature) => (
            <li key={feature}>
              <Icon name="check" size={16} /> {feature}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn-primary btn-block" onClick={onOpen} data-testid="view-full-report">
        View Full Report <Icon name="arrowRight" size={18} />
      </button>
    </article>
  );
}
