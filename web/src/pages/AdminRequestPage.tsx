import { Link, useParams } from 'react-router-dom';
import { ComingSoon } from '../components/ComingSoon';

export function AdminRequestPage() {
  const { id = '' } = useParams();
  return (
    <ComingSoon
      title={`Request #${id}`}
      icon="settings"
      description="Request details, status changes and report uploads."
    >
      <p>
        <Link to="/admin">Back to Dashboard</Link>
      </p>
    </ComingSoon>
  );
}
