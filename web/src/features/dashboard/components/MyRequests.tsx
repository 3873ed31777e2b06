import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon';
import { QueryState } from '../../../components/QueryState';
import { StatusBadge } from '../../../components/StatusBadge';
import { formatLongDate } from '../../../lib/dates';
import { useMyRequests } from '../api/myRequests';

/** Beyond the spec: the customer's own requests with their live status. */
export function MyRequests() {
  const mine = useMyRequests();

  return (
    <section className="card" data-testid="my-requests">
      <div className="card-heading-row">
        <h2 className="card-title">
          <Icon name="file" /> My Requests
        </h2>
        <Link to="/request" className="link-sm">
          New request
        </Link>
      </div>
      <QueryState
        query={mine}
        what="your requests"
        testId="my-requests-failed"
        isEmpty={(requests) => requests.length === 0}
        empty={
          <div className="empty-inline" data-testid="my-requests-empty">
            <p>You have not requested a property yet.</p>
            <Link to="/request" className="btn btn-secondary btn-sm">
              Request Coverage
            </Link>
          </div>
        }
      >
        {(requests) => (
          <ul className="list-rows">
            {requests.map((request) => (
              <li key={request.id} className="list-row" data-testid="my-request" data-id={request.id}>
                <div className="list-row-main">
                  <p className="list-row-title">{request.address}</p>
                  <p className="list-row-meta">Requested on {formatLongDate(request.created_at)}</p>
                </div>
                <div className="list-row-side">
                  <StatusBadge status={request.status} testId="my-request-status" />
                  {request.status === 'covered' && (
                    <Link to={`/report/${encodeURIComponent(request.id)}`} className="btn btn-primary btn-sm">
                      View Report
                    </Link>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
