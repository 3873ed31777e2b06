import type { CoverageRequest } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { CheckList } from '../../../components/CheckList';
import { Icon } from '../../../components/Icon';
import { Modal } from '../../../components/Modal';
import { formatLongDate } from '../../../lib/dates';
import { signInPathFor } from '../../../session/nextPath';

const benefits = [
  '10 free report credits every month',
  'Full valuation, investment strategy, school and neighborhood reports',
  'Track your coverage requests in your dashboard',
  'Email notifications when your reports are ready',
];

/**
 * What an anonymous visitor sees on View Full Report: why and how to sign in. Signing in from
 * here returns to the report they asked for, not to the dashboard.
 */
export function UnlockReportModal({ property, onClose }: { property: CoverageRequest; onClose: () => void }) {
  return (
    <Modal title="Unlock Full Property Report" onClose={onClose} testId="unlock-modal">
      <div className="unlock-property">
        <Icon name="home" />
        <div>
          <p className="unlock-address" data-testid="unlock-address">
            {property.address}
          </p>
          <p className="muted">Report completed {formatLongDate(property.updated_at)}</p>
        </div>
      </div>
      <p>Create a free account or sign in to read the full report.</p>
      <CheckList items={benefits} icon="checkCircle" />
      <div className="unlock-actions">
        <Link to="/register" className="btn btn-primary btn-block" data-testid="unlock-register">
          Create Free Account
        </Link>
        <Link
          to={signInPathFor('/login', `/report/${encodeURIComponent(property.id)}`)}
          className="btn btn-secondary btn-block"
          data-testid="unlock-login"
        >
          Sign In to Existing Account
        </Link>
      </div>
    </Modal>
  );
}
