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
      links={[
        { to: '/', label: 'Return to Home' },
        { to: '/help', label: 'Visit Help Center' },
      ]}
    >
      <p>Thank you for reaching out. Our team replies within 24 hours during business days.</p>
    </ResultPanel>
  );
}
