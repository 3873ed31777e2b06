import type { ZipListItem, ZipListPage as ZipPage } from '@homereport/contracts';
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Icon } from '../../../components/Icon';
import { ChoiceControl, SearchBox } from '../../../components/ListControls';
import { PageHero } from '../../../components/PageHero';
import { QueryState } from '../../../components/QueryState';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { type Stat, StatGrid } from '../../../components/StatCard';
import { MapPanel } from '../../../components/usmap/MapPanel';
import { MapToggle } from '../../../components/usmap/MapToggle';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { type Params, choiceParam, pageParam, textParam, useSearchState } from '../../../hooks/useSearchState';
import { useSession } from '../../../session/SessionProvider';
import { LOAD_ERROR, useZipCodePage } from '../api/zipCodes';
import { UnlockZipModal } from '../components/UnlockZipModal';
import { ZipCard } from '../components/ZipCard';
import { zipNav } from '../components/zipNav';
import { MAP_MEASURES, type MapMeasure, zipMapMarkers } from '../mapMarkers';
import { TIER_FILTERS, type TierFilter } from '../zipFormat';
import '../zip.css';

/** Cards per page: the page stays light however many analyses match (5,000 and more). */
export const PAGE_SIZE = 24;

function EmptyState() {
  return (
    <div className="card empty-state zip-empty" data-testid="zip-empty">
      <span className="icon-badge icon-badge-lg">
        <Icon name="search" size={28} />
      </span>
      <h3>No ZIP Codes Found</h3>
      <p>Try adjusting your search or filters to find the markets you are looking for.</p>
    </div>
  );
}

function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav className="zip-pager" aria-label="Pages of results" data-testid="zip-pager">
      <button type="button" className="btn btn-secondary btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <Icon name="arrowLeft" size={16} /> Previous
      </button>
      <span className="zip-pager-status" data-testid="zip-pager-status">
        Page {page} of {pages}
      </span>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next <Icon name="arrowRight" size={16} />
      </button>
    </nav>
  );
}

/**
 * The map of the ZIP codes the list shows: the same answer of the same query, so the two never
 * disagree; with more than one page, the map follows the pager as the list does.
 */
function ZipMap({
  items,
  measure,
  page,
  pages,
  onOpen,
}: {
  items: ZipListItem[];
  measure: MapMeasure;
  page: number;
  pages: number;
  onOpen: (zipCode: string) => void;
}) {
  const { markers, legend } = useMemo(() => zipMapMarkers(items, measure), [items, measure]);
  const measureLabel = MAP_MEASURES.find((option) => option.value === measure)?.label ?? measure;
  const which =
    pages > 1 ? `the ${items.length} ZIP codes of page ${page} of ${pages}` : `the ${items.length} ZIP codes`;
  return (
    <MapPanel
      title={`Map of ${which} listed below, coloured by ${measureLabel.toLowerCase()}`}
      markers={markers}
      legendTitle={measureLabel}
      legend={legend}
      placement={`The map shows ${which} listed below, each at its ZIP code's centre.`}
      onOpen={onOpen}
    />
  );
}

/**
 * What /zip shows lives in its address (?q=boston&tier=1&page=2): Back from a ZIP code returns to
 * the same search, and a bookmark or a shared link opens it again. A new search or tier starts
 * again at page 1.
 */
const ZIP_LIST: Params<{ q: string; tier: TierFilter; page: number; map: '' | '1'; measure: MapMeasure }> = {
  q: textParam,
  tier: choiceParam(
    TIER_FILTERS.map((option) => option.value),
    '',
  ),
  page: pageParam,
  // The map (issue 25) is in the address too: a shared link opens it, coloured the same way.
  map: choiceParam(['', '1'], ''),
  measure: choiceParam(
    MAP_MEASURES.map((option) => option.value),
    'tier',
  ),
};
const RESETS = ['page'] as const;

/** Typing waits this long for the next key before asking the server, so a word is one request, not one per letter. */
const SEARCH_DEBOUNCE_MS = 180;

const COUNTERS: Stat<ZipPage>[] = [
  { label: 'Total ZIP Codes', field: 'total', icon: 'pin', tone: 'blue', testId: 'zip-total' },
  { label: 'Premium Markets', field: 'premium', icon: 'trending', tone: 'green', testId: 'zip-premium' },
  { label: 'Showing', field: 'showing', icon: 'search', tone: 'teal', testId: 'zip-showing' },
];

export function ZipListPage() {
  useDocumentTitle(
    'ZIP Code Analysis',
    'Housing market analyses of U.S. ZIP codes: prices, trends, rental yields and outlook, on a map or in a list.',
  );
  const { user, loading } = useSession();
  const navigate = useNavigate();
  const params = useSearchState(ZIP_LIST, { debounceMs: SEARCH_DEBOUNCE_MS, resets: RESETS });
  const { q, tier, page, map, measure } = params.state;
  const [layout, setLayout] = useState<'grid' | 'list'>('grid');
  const [locked, setLocked] = useState<ZipListItem | null>(null);
  const closeModal = useCallback(() => setLocked(null), []);

  // The server filters and pages (5,000 analyses are 1.9 MB; a page of 24 is some 10 kB). While
  // the next answer loads, the last page stays on screen.
  const zipCodes = useZipCodePage({ search: q, tier, page, pageSize: PAGE_SIZE });
  const shown = zipCodes.data;
  const pages = Math.max(1, Math.ceil((shown?.showing ?? 0) / PAGE_SIZE));

  const { commitSearch } = params;
  const open = useCallback(
    async (zip: ZipListItem) => {
      // What is typed but not yet in the address goes in first (and is done before the next
      // navigation starts, which would cancel it), so Back returns to it.
      await commitSearch();
      // While the session is still being checked, the detail page (public) is the safe default.
      if (user || loading) await navigate(`/zip/${encodeURIComponent(zip.zipCode)}`);
      else setLocked(zip);
    },
    [user, loading, navigate, commitSearch],
  );

  // Showing the map or colouring it otherwise keeps the page: the map shows the page's ZIP codes.
  // The map's own choices keep the page: its markers are the page's cards.
  const changeMap = (change: Partial<typeof params.state>) => params.change({ ...change, page });
  const mapParams = { state: params.state, change: changeMap };

  const changePage = (next: number) => {
    params.change({ page: next });
    document.getElementById('zip-results')?.scrollIntoView({ block: 'start' });
  };

  return (
    <SiteLayout nav={zipNav(Boolean(user), user?.role === 'admin')}>
      <PageHero
        eyebrow="Market Intelligence"
        title="ZIP Code Analysis"
        lead="Compare U.S. markets by ZIP code: investment tier, prices, appreciation, risk, rents and outlook."
      />

      <section className="section section-tight">
        <div className="container">
          <div className="card list-controls">
            {/* 100: the API's limit for q (ZipListQuery). */}
            <SearchBox
              state={params}
              label="Search by ZIP code, city, state or neighborhood"
              maxLength={100}
              testId="zip-search"
            />
            <ChoiceControl
              params={params}
              name="tier"
              label="Investment tier"
              hideLabel
              options={TIER_FILTERS}
              testId="zip-tier-filter"
            />
            <fieldset className="zip-view-toggle">
              <legend className="sr-only">View</legend>
              {(['grid', 'list'] as const).map((mode) => (
                <button
                  key={mode}
                  type="button"
                  className={`btn btn-sm ${layout === mode ? 'btn-primary' : 'btn-secondary'}`}
                  aria-pressed={layout === mode}
                  onClick={() => setLayout(mode)}
                  data-testid={`zip-view-${mode}`}
                >
                  {mode === 'grid' ? 'Grid' : 'List'}
                </button>
              ))}
            </fieldset>
            <MapToggle shown={map === '1'} onChange={(shown) => changeMap({ map: shown ? '1' : '' })} />
            {map === '1' && (
              <ChoiceControl
                params={mapParams}
                name="measure"
                label="Colour by"
                options={MAP_MEASURES}
                testId="map-measure"
              />
            )}
          </div>

          <StatGrid stats={shown} cards={COUNTERS} className="stat-grid zip-stats" />

          <div id="zip-results">
            {/* The cards' h3 titles need an h2 above them: headings go down one level at a time. */}
            <h2 className="sr-only">Matching ZIP codes</h2>
            <QueryState
              query={zipCodes}
              what="ZIP code data"
              message={LOAD_ERROR}
              testId="zip-error"
              loading={<PageSpinner label="Loading ZIP codes" />}
              isEmpty={(result) => result.showing === 0}
              empty={<EmptyState />}
            >
              {(result) => (
                <>
                  {map === '1' && (
                    <ZipMap
                      items={result.zipCodes}
                      measure={measure}
                      page={Math.min(page, pages)}
                      pages={pages}
                      onOpen={(zipCode) => {
                        const zip = result.zipCodes.find((item) => item.zipCode === zipCode);
                        if (zip) void open(zip);
                      }}
                    />
                  )}
                  <div
                    className={layout === 'grid' ? 'zip-grid' : 'zip-list'}
                    data-testid="zip-results"
                    aria-busy={zipCodes.isPlaceholderData}
                  >
                    {result.zipCodes.map((zip) => (
                      <ZipCard key={zip.zipCode} zip={zip} layout={layout} onOpen={open} />
                    ))}
                  </div>
                  <Pager page={Math.min(page, pages)} pages={pages} onPage={changePage} />
                </>
              )}
            </QueryState>
          </div>

          <div className="zip-cta" data-testid="zip-cta">
            <div>
              <h2>Need an Analysis of a Specific Property?</h2>
              <p>Tell us the address; we review it within 24 hours and deliver the report within 3-5 business days.</p>
            </div>
            <Link to="/request" className="btn btn-light">
              Request Coverage Now <Icon name="arrowRight" size={18} />
            </Link>
          </div>
        </div>
      </section>

      {locked && <UnlockZipModal zip={locked} onClose={closeModal} />}
    </SiteLayout>
  );
}
