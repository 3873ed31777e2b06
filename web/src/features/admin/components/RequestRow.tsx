import type { RecentRequest } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { ListRow } from '../../../components/ListCard';
import { StatusBadge } from '../../../components/StatusBadge';
import { formatAdminDateTime } from '../../../lib/dates';

/** One request in an admin list: address, when, the requester's notes, status, a way in. */
export function RequestRow({ request, testId }: { request: RecentRequest; testId: string }) {
  return (
    <ListRow
      testId={testId}
      id={request.id}
      title={request.address}
      meta={`Requested on ${formatAdminDateTime(request.created_at)}`}
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
