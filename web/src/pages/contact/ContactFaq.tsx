import { Link } from 'react-router-dom';

const faqs = [
  {
    question: 'How quickly will I hear back?',
    answer: 'We reply to every message within 24 hours during business days, usually much sooner.',
  },
  {
    question: 'Can I request an assessment of a specific property?',
    answer: (
      <>
        Yes. Use the <Link to="/request">request form</Link> with the property address; our team reviews it within 24
        hours and delivers the report within 3-5 business days.
      </>
    ),
  },
  {
    question: 'Do you offer premium packages?',
    answer:
      'Yes, for investors and teams who need more reports, custom research or consulting. Send us a message with what you need and we will put together an offer.',
  },
];

/** The questions people ask before they write. */
export function ContactFaq() {
  return (
    <section className="section section-tight section-faq" aria-labelledby="contact-faq-title">
      <div className="container">
        <div className="contact-faq">
          <h2 id="contact-faq-title">Frequently Asked Questions</h2>
          <div className="grid grid-3">
            {faqs.map((faq) => (
              <article key={faq.question} className="card faq-card">
                <h3>{faq.question}</h3>
                <p>{faq.answer}</p>
              </article>
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
