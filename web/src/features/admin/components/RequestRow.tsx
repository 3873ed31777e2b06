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
  // A property asked about more than once says so: its request page lists them all.
  const others =
    request.requests_count && request.requests_count > 1
      ? ` · ${requestsFromPeople(request.requests_count, request.requesters_count ?? request.requests_count)} for this property`
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
