import type { CoverageRequest } from '@homereport/contracts';
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Icon } from '../../../components/Icon';
import { ChoiceControl, LoadMore, SearchBox } from '../../../components/ListControls';
import { PageHero } from '../../../components/PageHero';
import { QueryState } from '../../../components/QueryState';
import type { NavItem } from '../../../components/SiteHeader';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { MapPanel } from '../../../components/usmap/MapPanel';
import { MapToggle } from '../../../components/usmap/MapToggle';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { type Params, choiceParam, textParam, useSearchState } from '../../../hooks/useSearchState';
import { useSession } from '../../../session/SessionProvider';
import { type CoveredSort, useCoveredRequests } from '../api/coveredRequests';
import { useZipTiers } from '../api/zipTiers';
import { PropertyCard } from '../components/PropertyCard';
import { UnlockReportModal } from '../components/UnlockReportModal';
import { ZipMarketTeaser } from '../components/ZipMarketTeaser';
import { PROPERTY_LEGEND, propertyMapMarkers } from '../propertyMarkers';
import '../requests.css';

function navFor(signedIn: boolean, isAdmin: boolean): NavItem[] {
  const home: NavItem = { to: '/', label: 'Home' };
  if (signedIn) return [home, { to: isAdmin ? '/admin' : '/dashboard', label: 'Dashboard', kind: 'primary' }];
  return [
    home,
    { to: '/login', label: 'Sign In', kind: 'ghost' },
    { to: '/register', label: 'Get Started', kind: 'primary' },
  ];
}

const SEARCH_DEBOUNCE_MS = 300;

function NoMatch({ q, onClear }: { q: string; onClear: () => void }) {
  return (
    <div className="card empty-state properties-empty" data-testid="properties-no-match">
      <span className="icon-badge icon-badge-lg">
        <Icon name="search" size={28} />
      </span>
      <h3>No Reports Match “{q}”</h3>
      <p>Check the spelling, or search by street, city, state or ZIP code. You can also request this property.</p>
      <div className="actions center">
        <button type="button" className="btn btn-secondary" onClick={onClear}>
          Clear Search
        </button>
        <Link to="/request" className="btn btn-primary">
          Request Coverage
        </Link>
      </div>
    </div>
  );
}

/** The search and the order live in the URL (?q=&sort=city): Back, reload and a shared link show the same list. */
const PROPERTY_LIST: Params<{ q: string; sort: CoveredSort; map: '' | '1' }> = {
  q: textParam,
  sort: choiceParam<CoveredSort>(['newest', 'city'], 'newest'),
  // The map (issue 25) is in the address too, so a shared link opens it.
  map: choiceParam(['', '1'], ''),
};

/**
 * The map of the reports the list shows: the same answer of the same query (every page loaded so
 * far), so the two never disagree; "Load More" adds to both.
 */
function PropertyMap({ properties, onOpen }: { properties: CoverageRequest[]; onOpen: (id: string) => void }) {
  const markers = useMemo(() => propertyMapMarkers(properties), [properties]);
  return (
    <MapPanel
      title={`Map of the ${properties.length} property reports listed below`}
      markers={markers}
      legendTitle="Reports"
      legend={PROPERTY_LEGEND}
      placement={`The map shows the ${properties.length} reports listed below, each at the centre of its address's ZIP code (not the house itself).`}
      onOpen={onOpen}
    />
  );
}

function EmptyState() {
  return (
    <div className="card empty-state properties-empty" data-testid="properties-empty">
      <span className="icon-badge icon-badge-lg">
        <Icon name="home" size={28} />
      </span>
      <h3>No Reports Available Yet</h3>
      <p>Our team is working on the first reports. Request the property you are interested in and we will cover it.</p>
      <div className="actions center">
        <Link to="/request" className="btn btn-primary">
          Request Coverage
        </Link>
        <Link to="/" className="btn btn-secondary">
          Back to Home
        </Link>
      </div>
    </div>
  );
}

const SORTS: { value: CoveredSort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'city', label: 'City' },
];

export function PropertiesPage() {
  useDocumentTitle(
    'Browse Reports',
    'Browse finished HomeReport property assessments by address, city or ZIP code, and open a full report with a free credit.',
  );
  const { user, loading } = useSession();
  const navigate = useNavigate();
  const params = useSearchState(PROPERTY_LIST, { debounceMs: SEARCH_DEBOUNCE_MS });
  const { q, sort, map } = params.state;
  const covered = useCoveredRequests({ q, sort });
  // The tiers of the listed cards' ZIP codes: one call per hundred codes, not one per card.
  const tiers = useZipTiers(covered.data?.properties.map((p) => p.zip_code) ?? []);
  const [locked, setLocked] = useState<CoverageRequest | null>(null);
  const closeModal = useCallback(() => setLocked(null), []);

  function open(property: CoverageRequest) {
    // While the session is still being checked, the report route's own guard decides.
    if (user || loading) navigate(`/report/${encodeURIComponent(property.id)}`);
    else setLocked(property);
  }

  return (
    <SiteLayout nav={navFor(Boolean(user), user?.role === 'admin')}>
      <PageHero
        eyebrow="Browse Reports"
        title="Available Property Reports"
        lead="Completed assessments of U.S. residential properties: valuation, investment strategy, schools and neighborhood, reviewed by our experts."
      />

      <section className="section section-tight">
        <div className="container">
          <h2 className="sr-only">Reports</h2>
          <search className="card list-controls" aria-label="Find a report">
            <SearchBox state={params} label="Search by address, city or ZIP code" testId="properties-search" />
            <ChoiceControl params={params} name="sort" label="Sort by" options={SORTS} testId="properties-sort" />
            <MapToggle shown={map === '1'} onChange={(shown) => params.change({ map: shown ? '1' : '' })} />
          </search>
          <QueryState
            query={covered}
            what="the reports"
            testId="properties-error"
            loading={<PageSpinner label="Loading reports" />}
            isEmpty={(list) => list.properties.length === 0}
            empty={q ? <NoMatch q={q} onClear={params.clearSearch} /> : <EmptyState />}
          >
            {(list) => (
              <>
                {map === '1' && (
                  <PropertyMap
                    properties={list.properties}
                    onOpen={(id) => {
                      const property = list.properties.find((item) => item.id === id);
                      if (property) open(property);
                    }}
                  />
                )}
                <div className="property-grid" data-testid="property-list">
                  {list.properties.map((property) => (
                    <PropertyCard
                      key={property.id}
                      property={property}
                      tier={property.zip_code ? tiers.get(property.zip_code) : undefined}
                      onOpen={() => open(property)}
                    />
                  ))}
                </div>
                <LoadMore
                  query={covered}
                  what="more reports"
                  label="Load More Reports"
                  testId="load-more-properties"
                  failedTestId="properties-more-error"
                />
              </>
            )}
          </QueryState>

          <div className="assess-banner" data-testid="assess-banner">
            <div>
              <h2>Need a Specific Property Assessed?</h2>
              <p>Send us the address; we review it within 24 hours and deliver the report within 3-5 business days.</p>
            </div>
            <Link to="/request" className="btn btn-light">
              Request Coverage <Icon name="arrowRight" size={18} />
            </Link>
          </div>
        </div>
      </section>

      <ZipMarketTeaser />

      {locked && <UnlockReportModal property={locked} onClose={closeModal} />}
    </SiteLayout>
  );
}
