import { Link } from 'react-router-dom';
import { ResultPanel } from '../../components/ResultPanel';

/** Shown in place of the form once the message is sent. */
export function ContactSent() {
  return (
    <ResultPanel
      testId="contact-success"
      className="card"
      heading="h2"
      icon="checkCircle"
      title="Message Sent Successfully!"
    >
      <p>Thank you for reaching out. Our team replies within 24 hours during business days.</p>
      <div className="actions center">
        <Link to="/" className="btn btn-primary">
          Return to Home
        </Link>
        <Link to="/help" className="btn btn-secondary">
          Visit Help Center
        </Link>
      </div>
    </ResultPanel>
  );
}
