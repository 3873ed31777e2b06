import { Link } from 'react-router-dom';
import { Icon } from '../../components/Icon';

/** Shown in place of the form once the message is sent. */
export function ContactSent() {
  return (
    <div className="card result-panel" data-testid="contact-success">
      <span className="icon-badge icon-badge-lg icon-badge-green">
        <Icon name="checkCircle" size={28} />
      </span>
      <h2>Message Sent Successfully!</h2>
      <p>Thank you for reaching out. Our team replies within 24 hours during business days.</p>
      <div className="actions center">
        <Link to="/" className="btn btn-primary">
          Return to Home
        </Link>
        <Link to="/help" className="btn btn-secondary">
          Visit Help Center
        </Link>
      </div>
    </div>
  );
}
