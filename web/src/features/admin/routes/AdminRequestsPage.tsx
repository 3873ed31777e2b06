import type { RequestStatus } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { AccountPage } from '../../../components/AccountBar';
import { Icon } from '../../../components/Icon';
import { ChoiceControl, LoadMore, SearchBox } from '../../../components/ListControls';
import { QueryState } from '../../../components/QueryState';
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
    <AccountPage
      eyebrow="Admin"
      heading={
        <>
          <h1>All Requests</h1>
          <p className="muted">
            <Link to="/admin">
              <Icon name="arrowLeft" size={16} /> Back to Dashboard
            </Link>
          </p>
        </>
      }
    >
      <search className="card list-controls" aria-label="Find a request">
        <SearchBox state={params} label="Search by street, city, state or ZIP code" testId="admin-requests-search" />
        <ChoiceControl params={params} name="status" label="Status" options={STATUSES} testId="admin-requests-status" />
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
              <LoadMore
                query={list}
                what="more requests"
                label="Load More"
                testId="admin-requests-more"
                failedTestId="admin-requests-more-failed"
              />
            </>
          )}
        </QueryState>
      </section>
    </AccountPage>
  );
}
