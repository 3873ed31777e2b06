import type { CoverageRequest } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon';
import { QueryState } from '../../../components/QueryState';
import { Spinner } from '../../../components/Spinner';
import { requestsFromPeople } from '../../../lib/plural';
import { usePropertyRequests } from '../api/adminRequests';
import { RequestRow } from './RequestRow';

/**
 * The request's property: how many times and by how many people it was requested, and each of
 * its requests (the admin list filtered by property). Covering one covers them all.
 */
export function PropertyRequests({ request }: { request: CoverageRequest }) {
  const list = usePropertyRequests(request.property_id || undefined);
  const count = request.requests_count ?? 1;
  return (
    <section className="card" data-testid="property-requests" id="property">
      <h2 className="card-title">
        <Icon name="home" /> This Property
      </h2>
      <p data-testid="property-requests-summary">
        {requestsFromPeople(count, request.requesters_count ?? count)}.
        {count > 1 && ' Covering one of them covers them all, with the same files.'}
      </p>
      {count > 1 && request.property_id && (
        <p>
          <Link
            to={`/admin/requests?property=${encodeURIComponent(request.property_id)}`}
            data-testid="property-requests-queue"
          >
            Show them in the request queue
          </Link>
        </p>
      )}
      {count > 1 && (
        <QueryState
          query={list}
          what="the property's requests"
          testId="property-requests-failed"
          loading={<Spinner label="Loading the property's requests" />}
        >
          {(requests) => (
            <ul className="list-rows">
              {requests
                .filter((other) => other.id !== request.id)
                .map((other) => (
                  <RequestRow key={other.id} request={other} testId="property-request-row" />
                ))}
            </ul>
          )}
        </QueryState>
      )}
    </section>
  );
}
