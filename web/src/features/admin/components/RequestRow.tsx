import type { RecentRequest } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { StatusBadge } from '../../../components/StatusBadge';
import { formatAdminDateTime } from '../../../lib/dates';

/** One request in an admin list: address, when, the requester's notes, status, a way in. */
export function RequestRow({ request, testId }: { request: RecentRequest; testId: string }) {
  return (
    <li className="list-row" data-testid={testId} data-id={request.id}>
      <div className="list-row-main">
        <p className="list-row-title">{request.address}</p>
        <p className="list-row-meta">Requested on {formatAdminDateTime(request.created_at)}</p>
        {request.notes && <p className="list-row-notes">{request.notes}</p>}
      </div>
      <div className="list-row-side">
        <StatusBadge status={request.status} />
        <Link
          to={`/admin/request/${encodeURIComponent(request.id)}`}
          className="btn btn-secondary btn-sm"
          data-testid="view-details"
        >
          View Details
        </Link>
      </div>
    </li>
  );
}
