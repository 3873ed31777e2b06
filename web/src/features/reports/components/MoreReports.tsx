import { Link } from 'react-router-dom';

/** Under a report: on to the other reports, or to asking for one (`request` words the button). */
export function MoreReports({ request }: { request: string }) {
  return (
    <div className="actions">
      <Link to="/properties" className="btn btn-secondary">
        Browse More Reports
      </Link>
      <Link to="/request" className="btn btn-primary">
        {request}
      </Link>
    </div>
  );
}
