import type { CoverageRequest } from '@homereport/contracts';
import { ExternalLink } from '../../../components/ExternalLink';
import { Icon } from '../../../components/Icon';
import { SaveStar } from '../../../components/SaveStar';
import { formatLongDate } from '../../../lib/dates';
import { countOf } from '../../../lib/plural';

const features = [
  'Property valuation & market analysis',
  'Investment strategy & ROI',
  'School & neighborhood insights',
];

/** One available report on /properties. */
export function PropertyCard({ property, onOpen }: { property: CoverageRequest; onOpen: () => void }) {
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
      <p className="property-date">
        <Icon name="clock" size={16} /> Report completed {formatLongDate(property.updated_at)}
      </p>
      {property.requests_count !== undefined && (
        <p className="property-date" data-testid="property-requests-count">
          <Icon name="users" size={16} /> {countOf(property.requests_count, 'request')}
        </p>
      )}
      <ul className="check-list property-features">
        {features.map((feature) => (
          <li key={feature}>
            <Icon name="check" size={16} /> {feature}
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-primary btn-block" onClick={onOpen} data-testid="view-full-report">
        View Full Report <Icon name="arrowRight" size={18} />
      </button>
    </article>
  );
}
