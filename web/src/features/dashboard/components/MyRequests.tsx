import { Link } from 'react-router-dom';
import { ListCard, ListRow } from '../../../components/ListCard';
import { StatusBadge } from '../../../components/StatusBadge';
import { formatLongDate } from '../../../lib/dates';
import { useMyRequests } from '../api/myRequests';

/** Beyond the spec: the customer's own requests with their live status. */
export function MyRequests() {
  return (
    <ListCard
      testId="my-requests"
      icon="file"
      title="My Requests"
      action={
        <Link to="/request" className="link-sm">
          New request
        </Link>
      }
      query={useMyRequests()}
      what="your requests"
      empty={{ text: 'You have not requested a property yet.', link: { to: '/request', label: 'Request Coverage' } }}
    >
      {(requests) =>
        requests.map((request) => (
          <ListRow
            key={request.id}
            testId="my-request"
            id={request.id}
            title={request.address}
            meta={`Requested on ${formatLongDate(request.created_at)}`}
            side={
              <>
                <StatusBadge status={request.status} testId="my-request-status" />
                {request.status === 'covered' && (
                  <Link to={`/report/${encodeURIComponent(request.id)}`} className="btn btn-primary btn-sm">
                    View Report
                  </Link>
                )}
              </>
            }
          />
        ))
      }
    </ListCard>
  );
}
