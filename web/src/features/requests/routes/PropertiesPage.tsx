import type { CoverageRequest } from '@homereport/contracts';
import { useCallback, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Icon } from '../../../components/Icon';
import { LoadFailed, QueryState } from '../../../components/QueryState';
import type { NavItem } from '../../../components/SiteHeader';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { useSession } from '../../../session/SessionProvider';
import { useCoveredRequests } from '../api/coveredRequests';
import { PropertyCard } from '../components/PropertyCard';
import { UnlockReportModal } from '../components/UnlockReportModal';
import { ZipMarketTeaser } from '../components/ZipMarketTeaser';
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

export function PropertiesPage() {
  useDocumentTitle('Browse Reports');
  const { user, loading } = useSession();
  const navigate = useNavigate();
  const covered = useCoveredRequests();
  const [locked, setLocked] = useState<CoverageRequest | null>(null);
  const closeModal = useCallback(() => setLocked(null), []);

  function open(property: CoverageRequest) {
    // While the session is still being checked, the report route's own guard decides.
    if (user || loading) navigate(`/report/${encodeURIComponent(property.id)}`);
    else setLocked(property);
  }

  return (
    <SiteLayout nav={navFor(Boolean(user), user?.role === 'admin')}>
      <section className="page-hero">
        <div className="container">
          <p className="eyebrow">Browse Reports</p>
          <h1>Available Property Reports</h1>
          <p className="page-hero-lead">
            Completed assessments of U.S. residential properties: valuation, investment strategy, schools and
            neighborhood, reviewed by our experts.
          </p>
        </div>
      </section>

      <section className="section section-tight">
        <div className="container">
          <QueryState
            query={covered}
            what="the reports"
            testId="properties-error"
            loading={<PageSpinner label="Loading reports" />}
            isEmpty={(list) => list.properties.length === 0}
            empty={<EmptyState />}
          >
            {(list) => (
              <>
                <div className="property-grid" data-testid="property-list">
                  {list.properties.map((property) => (
                    <PropertyCard key={property.id} property={property} onOpen={() => open(property)} />
                  ))}
                </div>
                {covered.isFetchNextPageError ? (
                  <LoadFailed
                    what="more reports"
                    error={covered.error}
                    onRetry={() => void covered.fetchNextPage()}
                    retrying={covered.isFetchingNextPage}
                    testId="properties-more-error"
                  />
                ) : (
                  covered.hasNextPage && (
                    <div className="actions center load-more">
                      <button
                        type="button"
                        className="btn btn-secondary"
                        disabled={covered.isFetchingNextPage}
                        onClick={() => void covered.fetchNextPage()}
                        data-testid="load-more-properties"
                      >
                        {covered.isFetchingNextPage ? 'Loading More Reports...' : 'Load More Reports'}
                      </button>
                    </div>
                  )
                )}
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
