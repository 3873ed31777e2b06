import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api/client';
import type { ContactMessage, MessageResponse } from '../api/types';
import { Alert } from '../components/Alert';
import { Icon, type IconName } from '../components/Icon';
import type { NavItem } from '../components/SiteHeader';
import { SiteLayout } from '../components/SiteLayout';
import { mailtoHref, mapHref, site, telHref } from '../config/site';
import { useDocumentTitle } from '../hooks/useDocumentTitle';

const nav: NavItem[] = [
  { to: '/', label: 'Back to Home', icon: 'arrowLeft' },
  { to: '/login', label: 'Sign In', kind: 'ghost' },
  { to: '/register', label: 'Get Started', kind: 'primary' },
];

type ContactMethod = {
  icon: IconName;
  title: string;
  description: string;
  value: string;
  href: string;
  external?: boolean;
};

const contactMethods: ContactMethod[] = [
  {
    icon: 'mail',
    title: 'Email Support',
    description: 'Write to us any time; we reply within 24 hours on business days.',
    value: site.supportEmail,
    href: mailtoHref(site.supportEmail),
  },
  {
    icon: 'phone',
    title: 'Phone Support',
    description: 'Talk to a specialist, Mon-Fri 9:00 AM-6:00 PM EST.',
    value: site.supportPhone,
    href: telHref(site.supportPhone),
  },
  {
    icon: 'chat',
    title: 'Live Chat',
    description: 'Quick answers from our team during business hours.',
    value: 'Start a conversation',
    href: site.liveChatUrl,
    external: true,
  },
  {
    icon: 'building',
    title: 'Office Address',
    description: 'Visits by appointment only.',
    value: site.officeAddress,
    href: mapHref(site.officeAddress),
    external: true,
  },
];

const hours = [
  { days: 'Monday - Friday', time: '9:00 AM - 6:00 PM EST' },
  { days: 'Saturday', time: '10:00 AM - 4:00 PM EST' },
  { days: 'Sunday', time: 'Closed' },
];

const quickLinks = [
  { to: '/help', label: 'Help Center' },
  { to: '/request', label: 'Request Coverage' },
  { to: '/properties', label: 'Browse Reports' },
  { to: '/privacy', label: 'Privacy Policy' },
];

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

const emptyForm: ContactMessage = { name: '', email: '', subject: '', message: '' };

export function ContactPage() {
  useDocumentTitle('Contact Us');
  const [form, setForm] = useState<ContactMessage>(emptyForm);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  function update(field: keyof ContactMessage) {
    return (event: { target: { value: string } }) =>
      setForm((current) => ({ ...current, [field]: event.target.value }));
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSending(true);
    const result = await api.post<MessageResponse>('/api/contact', form, {
      fallbackError: 'Failed to send message. Please try again.',
    });
    setSending(false);
    if (result.ok) {
      setForm(emptyForm);
      setSent(true);
      // The confirmation is shorter than the form; without this it can open above the viewport.
      window.scrollTo({ top: 0, behavior: 'smooth' });
    } else {
      setError(result.error);
    }
  }

  return (
    <SiteLayout nav={nav}>
      <section className="page-hero">
        <div className="container">
          <p className="eyebrow">Contact</p>
          <h1>Get in Touch</h1>
          <p className="page-hero-lead">
            Questions about a report, your account or a property you are considering? Our team is here to help.
          </p>
        </div>
      </section>

      <section className="section section-tight">
        <div className="container contact-layout">
          <div className="contact-main">
            {sent ? (
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
            ) : (
              <div className="card form-card">
                <h2>Send Us a Message</h2>
                <p className="muted">Fill in the form and we will get back to you within 24 hours on business days.</p>
                {error && (
                  <Alert kind="error" testId="contact-error">
                    {error}
                  </Alert>
                )}
                <form className="form" onSubmit={(event) => void handleSubmit(event)} data-testid="contact-form">
                  <div className="form-grid">
                    <div className="field">
                      <label htmlFor="contact-name">Full Name</label>
                      <input
                        id="contact-name"
                        name="name"
                        type="text"
                        autoComplete="name"
                        required
                        value={form.name}
                        onChange={update('name')}
                        placeholder="Jane Doe"
                        data-testid="contact-name"
                      />
                    </div>
                    <div className="field">
                      <label htmlFor="contact-email">Email Address</label>
                      <input
                        id="contact-email"
                        name="email"
                        type="email"
                        autoComplete="email"
                        required
                        value={form.email}
                        onChange={update('email')}
                        placeholder="you@example.com"
                        data-testid="contact-email"
                      />
                    </div>
                  </div>
                  <div className="field">
                    <label htmlFor="contact-subject">Subject</label>
                    <input
                      id="contact-subject"
                      name="subject"
                      type="text"
                      required
                      value={form.subject}
                      onChange={update('subject')}
                      placeholder="How can we help?"
                      data-testid="contact-subject"
                    />
                  </div>
                  <div className="field">
                    <label htmlFor="contact-message">Message</label>
                    <textarea
                      id="contact-message"
                      name="message"
                      rows={6}
                      required
                      value={form.message}
                      onChange={update('message')}
                      placeholder="Tell us a little about your question or the property you have in mind."
                      data-testid="contact-message"
                    />
                  </div>
                  <button
                    type="submit"
                    className="btn btn-primary btn-block"
                    disabled={sending}
                    data-testid="contact-submit"
                  >
                    {sending ? (
                      'Sending Message...'
                    ) : (
                      <>
                        <Icon name="send" size={18} /> Send Message
                      </>
                    )}
                  </button>
                </form>
              </div>
            )}
          </div>

          <aside className="contact-side">
            <div className="card">
              <h2 className="card-title">Get in Touch</h2>
              <ul className="method-list">
                {contactMethods.map((method) => (
                  <li key={method.title} className="method">
                    <span className="icon-badge">
                      <Icon name={method.icon} size={20} />
                    </span>
                    <div>
                      <h3>{method.title}</h3>
                      <p className="muted">{method.description}</p>
                      <a
                        href={method.href}
                        {...(method.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                        className="method-value"
                      >
                        {method.value}
                      </a>
                    </div>
                  </li>
                ))}
              </ul>
            </div>
            <div className="card">
              <h2 className="card-title">
                <Icon name="clock" size={20} /> Business Hours
              </h2>
              <dl className="hours">
                {hours.map((row) => (
                  <div key={row.days}>
                    <dt>{row.days}</dt>
                    <dd>{row.time}</dd>
                  </div>
                ))}
              </dl>
            </div>
            <div className="card">
              <h2 className="card-title">Quick Links</h2>
              <ul className="link-list">
                {quickLinks.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to}>
                      {link.label} <Icon name="arrowRight" size={16} />
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          </aside>
        </div>
      </section>

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
    </SiteLayout>
  );
}
