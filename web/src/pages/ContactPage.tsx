import { useState } from 'react';
import { PageHero } from '../components/PageHero';
import type { NavItem } from '../components/SiteHeader';
import { SiteLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { ContactFaq } from './contact/ContactFaq';
import { ContactForm } from './contact/ContactForm';
import { ContactSent } from './contact/ContactSent';
import { ContactSidebar } from './contact/ContactSidebar';

const nav: NavItem[] = [
  { to: '/', label: 'Back to Home', icon: 'arrowLeft' },
  { to: '/login', label: 'Sign In', kind: 'ghost' },
  { to: '/register', label: 'Get Started', kind: 'primary' },
];

/** /contact: the message form (or its confirmation), the ways to reach us, and common questions. */
export function ContactPage() {
  useDocumentTitle(
    'Contact Us',
    'Questions about a property report, your account or our ZIP code analyses? Send HomeReport a message; we answer within 24 hours on business days.',
  );
  const [sent, setSent] = useState(false);

  function showSent() {
    setSent(true);
    // The confirmation is shorter than the form; without this it can open above the viewport.
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }

  return (
    <SiteLayout nav={nav}>
      <PageHero
        eyebrow="Contact"
        title="Get in Touch"
        lead="Questions about a report, your account or a property you are considering? Our team is here to help."
      />

      <section className="section section-tight">
        <div className="container contact-layout">
          <div className="contact-main">{sent ? <ContactSent /> : <ContactForm onSent={showSent} />}</div>
          <ContactSidebar />
        </div>
      </section>

      <ContactFaq />
    </SiteLayout>
  );
}
