import type { RequestStatus } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { AccountBar } from '../../../components/AccountBar';
import { Icon } from '../../../components/Icon';
import { LoadFailed, QueryState } from '../../../components/QueryState';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { type Params, choiceParam, textParam, useSearchState } from '../../../hooks/useSearchState';
import { useAdminRequests } from '../api/adminRequests';
import { RequestRow } from '../components/RequestRow';
import '../admin.css';

const STATUSES: { value: RequestStatus | ''; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'requested', label: 'Requested' },
  { value: 'in_progress', label: 'In Progress' },
  { value: 'covered', label: 'Covered' },
];

/** The search and the filters live in the URL (?q=&status=covered&property=<property id>). */
const REQUEST_LIST: Params<{ q: string; status: RequestStatus | ''; property: string }> = {
  q: textParam,
  property: textParam,
  status: choiceParam(
    STATUSES.map((option) => option.value),
    '',
  ),
};

/** Every request, newest first: search by address words, filter by status; both in the URL. */
export function AdminRequestsPage() {
  useDocumentTitle('All Requests');
  const params = useSearchState(REQUEST_LIST, { debounceMs: 300 });
  const { q, status, property } = params.state;
  const list = useAdminRequests({ q, status, property });
  const filtered = q !== '' || status !== '' || property !== '';

  return (
    <SiteLayout>
      <section className="section section-tight">
        <div className="container">
          <AccountBar eyebrow="Admin">
            <h1>All Requests</h1>
            <p className="muted">
              <Link to="/admin">
                <Icon name="arrowLeft" size={16} /> Back to Dashboard
              </Link>
            </p>
          </AccountBar>

          <search className="card list-controls" aria-label="Find a request">
            <label className="search-box">
              <Icon name="search" size={20} />
              <span className="sr-only">Search requests by address words</span>
              <input
                type="search"
                value={params.search}
                onChange={(event) => params.setSearch(event.target.value)}
                placeholder="Search by street, city, state or ZIP code"
                maxLength={200}
                data-testid="admin-requests-search"
              />
            </label>
            <label className="list-control">
              <span>Status</span>
              <select
                value={status}
                onChange={(event) => params.change({ status: event.target.value as RequestStatus | '' })}
                data-testid="admin-requests-status"
              >
                {STATUSES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
          </search>

          {property && (
            <p className="card muted" data-testid="admin-requests-property-filter">
              Showing the requests of one property only.{' '}
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => params.change({ property: '' })}>
                Show every property
              </button>
            </p>
          )}

          <section className="card" data-testid="admin-requests">
            <h2 className="sr-only">Requests</h2>
            <QueryState
              query={list}
              what="the requests"
              testId="admin-requests-failed"
              loading={<PageSpinner label="Loading requests" />}
              isEmpty={(requests) => requests.length === 0}
              empty={
                <p className="muted" data-testid="admin-requests-empty">
                  {filtered ? 'No request matches this search.' : 'No requests yet.'}
                </p>
              }
            >
              {(requests) => (
                <>
                  <ul className="list-rows">
                    {requests.map((request) => (
                      <RequestRow key={request.id} request={request} testId="admin-request-row" />
                    ))}
                  </ul>
                  {list.isFetchNextPageError ? (
                    <LoadFailed
                      what="more requests"
                      error={list.error}
                      onRetry={() => void list.fetchNextPage()}
                      retrying={list.isFetchingNextPage}
                      testId="admin-requests-more-failed"
                    />
                  ) : (
                    list.hasNextPage && (
                      <div className="actions center load-more">
                        <button
                          type="button"
                          className="btn btn-secondary"
                          disabled={list.isFetchingNextPage}
                          onClick={() => void list.fetchNextPage()}
                          data-testid="admin-requests-more"
                        >
                          {list.isFetchingNextPage ? 'Loading More...' : 'Load More'}
                        </button>
                      </div>
                    )
                  )}
                </>
              )}
            </QueryState>
          </section>
        </div>
      </section>
    </SiteLayout>
  );
}
