import type { CoverageRequest, RecentRequest } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { ListRow } from '../../../components/ListCard';
import { StatusBadge } from '../../../components/StatusBadge';
import { formatAdminDateTime } from '../../../lib/dates';
import { requestsFromPeople } from '../../../lib/plural';

/** One request in an admin list: address, when, the requester's notes, status, a way in. */
export function RequestRow({
  request,
  testId,
}: {
  request: RecentRequest & Partial<Pick<CoverageRequest, 'requests_count' | 'requesters_count'>>;
  testId: string;
}) {
  // A property asked about more than once says so; its request page lists them all (the list
  // filtered by property).
  const shared = request.requests_count !== undefined && request.requests_count > 1;
  const others = shared
    ? ` · ${requestsFromPeople(request.requests_count ?? 1, request.requesters_count ?? request.requests_count ?? 1)} for this property`
    : '';
  return (
    <ListRow
      testId={testId}
      id={request.id}
      title={request.address}
      meta={`Requested on ${formatAdminDateTime(request.created_at)}${others}`}
      notes={request.notes}
      side={
        <>
          <StatusBadge status={request.status} />
          {shared && (
            <Link
              to={`/admin/request/${encodeURIComponent(request.id)}#property`}
              className="btn btn-secondary btn-sm"
              data-testid="property-requests-link"
            >
              All {request.requests_count}
              <span className="sr-only"> requests for this property</span>
            </Link>
          )}
          <Link
            to={`/admin/request/${encodeURIComponent(request.id)}`}
            className="btn btn-secondary btn-sm"
            data-testid="view-details"
          >
            View Details
          </Link>
        </>
      }
    />
  );
}
