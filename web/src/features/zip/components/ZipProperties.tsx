import type { CoverageRequest } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon';
import { QueryState } from '../../../components/QueryState';
import { ReportFigures } from '../../../components/ReportFigures';
import { Spinner } from '../../../components/Spinner';
import { ZIP_PROPERTIES_SHOWN, useZipProperties } from '../api/zipProperties';
import { Section } from './analysis/blocks';

/** A report's card on /properties: found by its whole address. */
const cardLink = (address: string) => `/properties?q=${encodeURIComponent(address)}`;

function PropertyItem({ property }: { property: CoverageRequest }) {
  return (
    <li className="zip-property" data-testid="zip-property" data-id={property.id}>
      <h3 className="zip-property-address">
        <Link to={cardLink(property.address)} data-testid="zip-property-card-link">
          {property.address}
        </Link>
      </h3>
      <ReportFigures summary={property.summary} testId="zip-property-figures" />
      <Link
        to={`/report/${encodeURIComponent(property.id)}`}
        className="btn btn-secondary btn-sm zip-property-open"
        data-testid="zip-property-report-link"
      >
        Open Report<span className="sr-only"> of {property.address}</span> <Icon name="arrowRight" size={16} />
      </Link>
    </li>
  );
}

/**
 * The ZIP code page's covered properties (issue 40): each with its headline figures, a link to
 * its card on Browse and one to its report. Loading, failed and empty each say so.
 */
export function ZipProperties({ zipCode }: { zipCode: string }) {
  const query = useZipProperties(zipCode);
  return (
    <Section title={`Property Reports in ${zipCode}`} icon="home" testId="zip-properties">
      <QueryState
        query={query}
        what="the property reports of this ZIP code"
        testId="zip-properties-error"
        loading={
          <p className="zip-properties-loading" data-testid="zip-properties-loading">
            <Spinner label="Loading property reports" /> Loading property reports…
          </p>
        }
        isEmpty={(reply) => reply.properties.length === 0}
        empty={
          <p className="muted zip-properties-empty" data-testid="zip-properties-empty">
            No property in {zipCode} has a report yet. <Link to="/request">Request one</Link> and we will cover it.
          </p>
        }
      >
        {(reply) => (
          <>
            <ul className="zip-property-list" data-testid="zip-property-list">
              {reply.properties.map((property) => (
                <PropertyItem key={property.id} property={property} />
              ))}
            </ul>
            {reply.next_cursor && reply.properties.length >= ZIP_PROPERTIES_SHOWN && (
              <p className="zip-properties-more">
                <Link to={`/properties?q=${zipCode}`}>See every report in {zipCode} on Browse Reports</Link>
              </p>
            )}
          </>
        )}
      </QueryState>
    </Section>
  );
}
