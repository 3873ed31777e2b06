import type { ZipListItem } from '@homereport/contracts';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon';
import { Modal } from '../../../components/Modal';

export const UNLOCK_BENEFITS = [
  'Median prices, appreciation and 12-month price trends',
  'Rental market: average rents by bedroom count and gross yield',
  'Demographics, employment and the risks to watch',
  'Market outlook and actionable investment recommendations',
];

export const GET_STARTED_ITEMS = [
  '10 free report credits per month',
  'Access to all ZIP code analyses',
  'Track request history',
  'Email notifications',
];

/**
 * What a signed-out visitor sees on View Full Analysis (spec section 2, ZIP code list). It closes
 * on the overlay, the close button (and Escape), or by following one of its account links.
 */
export function UnlockZipModal({ zip, onClose }: { zip: ZipListItem; onClose: () => void }) {
  return (
    <Modal title="Unlock ZIP Code Analysis" onClose={onClose} testId="zip-unlock-modal">
      <div className="unlock-zip">
        <span className="icon-badge">
          <Icon name="pin" />
        </span>
        <div>
          <p className="unlock-zip-code" data-testid="zip-unlock-code">
            ZIP Code {zip.zipCode}
          </p>
          <p className="muted">
            {zip.location.city}, {zip.location.state}
            {zip.location.neighborhood ? ` · ${zip.location.neighborhood}` : ''}
          </p>
        </div>
      </div>
      <p>Sign in to read the full market analysis of this ZIP code:</p>
      <ul className="check-list" data-testid="zip-unlock-benefits">
        {UNLOCK_BENEFITS.map((benefit) => (
          <li key={benefit}>
            <Icon name="checkCircle" size={18} /> {benefit}
          </li>
        ))}
      </ul>
      <div className="benefits-box zip-get-started" data-testid="zip-get-started">
        <h3>Get Started Today</h3>
        <ul>
          {GET_STARTED_ITEMS.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </div>
      <div className="unlock-actions">
        <Link to="/register" className="btn btn-primary btn-block" onClick={onClose} data-testid="zip-unlock-register">
          Create Free Account
        </Link>
        <Link to="/login" className="btn btn-secondary btn-block" onClick={onClose} data-testid="zip-unlock-login">
          Sign In to Existing Account
        </Link>
      </div>
      <p className="unlock-signin muted">
        Already have an account?{' '}
        <Link to="/login" onClick={onClose} data-testid="zip-unlock-signin-link">
          Sign in
        </Link>
      </p>
    </Modal>
  );
}
