import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../components/Icon';
import { PageHero } from '../components/PageHero';
import { SiteLayout } from '../components/SiteLayout';
import { mailtoHref, site } from '../config/site';
import { useDocumentTitle } from '../hooks/useDocumentTitle';

type Subsection = { title: string; body: ReactNode };
type Section = { id: string; title: string; intro: string; subsections: Subsection[] };

const sections: Section[] = [
  {
    id: 'information-we-collect',
    title: 'Information We Collect',
    intro: 'We collect only what we need to produce reports, run your account and answer you.',
    subsections: [
      {
        title: 'Information you give us',
        body: (
          <ul>
            <li>Account details: your email address and password. We store passwords only as a one-way hash.</li>
            <li>Coverage requests: the property address, any listing link and the notes you add.</li>
            <li>Messages you send through the contact form: your name, email address, subject and message.</li>
          </ul>
        ),
      },
      {
        title: 'Information created as you use the service',
        body: (
          <ul>
            <li>Which reports you open and when, which we use to count your report credits.</li>
            <li>Technical records such as IP address, browser type and request times, kept in server logs.</li>
          </ul>
        ),
      },
      {
        title: 'Storage in your browser',
        body: (
          <p>
            We keep your sign-in session token and the time of your last activity in your browser's local storage, and
            whether you dismissed the support button in session storage. We do not use advertising cookies.
          </p>
        ),
      },
    ],
  },
  {
    id: 'how-we-use-your-information',
    title: 'How We Use Your Information',
    intro: 'We use your information to provide and improve the service, never to sell it.',
    subsections: [
      {
        title: 'To provide the service',
        body: (
          <p>
            We use your details to create and secure your account, review and fulfil your coverage requests, show you
            completed reports and keep track of your report credits.
          </p>
        ),
      },
      {
        title: 'To communicate with you',
        body: (
          <p>
            We send the emails the service depends on: email verification, password reset links, confirmations of your
            requests and notices that a report is ready. We also reply to the messages you send us.
          </p>
        ),
      },
      {
        title: 'To keep the service safe and working',
        body: (
          <p>
            We use technical records to detect abuse, limit repeated attempts, investigate errors and understand how the
            service is used so we can improve it.
          </p>
        ),
      },
    ],
  },
  {
    id: 'information-sharing',
    title: 'Information Sharing',
    intro: 'We do not sell or rent your personal information.',
    subsections: [
      {
        title: 'Service providers',
        body: (
          <p>
            We share information with companies that host our systems, store report files and deliver our emails, only
            as far as they need it to do that work for us and under contracts that protect it.
          </p>
        ),
      },
      {
        title: 'Legal requirements',
        body: (
          <p>
            We may disclose information when the law requires it, or to protect the rights, property or safety of our
            users, the public or HomeReport.
          </p>
        ),
      },
      {
        title: 'Business transfers',
        body: (
          <p>
            If HomeReport is involved in a merger, acquisition or sale of assets, your information may be transferred as
            part of that deal; we will tell you before it becomes subject to a different privacy policy.
          </p>
        ),
      },
    ],
  },
  {
    id: 'data-security',
    title: 'Data Security',
    intro: 'We protect your information with technical and organizational measures.',
    subsections: [
      {
        title: 'How we protect your account',
        body: (
          <ul>
            <li>Passwords are stored only as a strong one-way hash, never in readable form.</li>
            <li>Signing out, or resetting your password, ends your sessions on our servers at once.</li>
            <li>Report documents open through short-lived signed links that expire soon after they are issued.</li>
          </ul>
        ),
      },
      {
        title: 'How we protect our systems',
        body: (
          <p>
            Information travels encrypted between your browser and our servers. Access to administrative tools is
            limited to authorized staff.
          </p>
        ),
      },
      {
        title: 'Your part',
        body: (
          <p>
            No system is perfectly secure. Choose a strong, unique password, keep it private, and sign out on shared
            devices. Tell us at once if you suspect someone has used your account.
          </p>
        ),
      },
    ],
  },
  {
    id: 'your-rights-and-choices',
    title: 'Your Rights and Choices',
    intro: 'You stay in control of your personal information.',
    subsections: [
      {
        title: 'Access and correction',
        body: <p>You can ask us for a copy of the personal information we hold about you, and to correct it.</p>,
      },
      {
        title: 'Deletion',
        body: (
          <p>
            You can ask us to delete your account and the personal information linked to it. Some records may be kept
            where the law requires it, as described under Data Retention.
          </p>
        ),
      },
      {
        title: 'State privacy rights',
        body: (
          <p>
            Depending on where you live, for example in California, you may have additional rights, such as to know what
            we collect and to not be discriminated against for using your rights. We honor these requests for all our
            users.
          </p>
        ),
      },
      {
        title: 'How to make a request',
        body: (
          <p>
            Write to <a href={mailtoHref(site.privacyEmail)}>{site.privacyEmail}</a> from the email address of your
            account. We answer within 30 days.
          </p>
        ),
      },
    ],
  },
  {
    id: 'data-retention',
    title: 'Data Retention',
    intro: 'We keep personal information only as long as we need it.',
    subsections: [
      {
        title: 'Account data',
        body: (
          <p>
            We keep your account data while your account is open. When you delete your account, your account data is
            deleted or anonymized within 30 days of account deletion.
          </p>
        ),
      },
      {
        title: 'Technical records',
        body: (
          <p>
            Server logs are kept only as long as needed to keep the service secure and to investigate problems, and are
            then deleted.
          </p>
        ),
      },
      {
        title: 'Records we must keep',
        body: (
          <p>
            Where the law requires us to keep certain records, for example for tax or legal claims, we keep only those
            records and only for as long as required.
          </p>
        ),
      },
    ],
  },
];

export function PrivacyPage() {
  useDocumentTitle(
    'Privacy Policy',
    'How HomeReport collects, uses and protects your personal information, and the choices you have.',
  );
  return (
    <SiteLayout>
      <PageHero
        eyebrow="Legal"
        title="Privacy Policy"
        lead="How HomeReport collects, uses and protects your personal information."
      >
        <p className="updated" data-testid="privacy-updated">
          Last updated January 15, 2024
        </p>
      </PageHero>

      <section className="section section-tight">
        <div className="container privacy-layout">
          <nav className="card toc" aria-label="Table of contents">
            <h2>Contents</h2>
            <ol>
              {sections.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`}>{section.title}</a>
                </li>
              ))}
            </ol>
          </nav>

          <div className="privacy-body">
            <div className="card prose">
              <p>
                HomeReport ("we", "us") provides property assessment reports for U.S. residential properties. This
                policy explains what personal information we collect when you use our website and services, why we
                collect it, and the choices you have.
              </p>
            </div>
            {sections.map((section, index) => (
              <section key={section.id} id={section.id} className="card prose policy-section">
                <h2>
                  <span className="policy-number">{index + 1}</span>
                  {section.title}
                </h2>
                <p className="muted">{section.intro}</p>
                {section.subsections.map((subsection) => (
                  <div key={subsection.title} className="policy-subsection">
                    <h3>{subsection.title}</h3>
                    {subsection.body}
                  </div>
                ))}
              </section>
            ))}

            <section className="card prose policy-contact" aria-labelledby="privacy-contact">
              <h2 id="privacy-contact">
                <Icon name="shield" size={22} /> Contact Us
              </h2>
              <p>Questions about this policy or your personal information? Contact us:</p>
              <dl className="contact-list">
                <div>
                  <dt>Privacy team</dt>
                  <dd>
                    <a href={mailtoHref(site.privacyEmail)}>{site.privacyEmail}</a>
                  </dd>
                </div>
                <div>
                  <dt>Data Protection Officer</dt>
                  <dd>
                    <a href={mailtoHref(site.dpoEmail)}>{site.dpoEmail}</a>
                  </dd>
                </div>
              </dl>
              <div className="actions">
                <Link to="/help" className="btn btn-secondary btn-sm">
                  Help Center
                </Link>
                <Link to="/contact" className="btn btn-secondary btn-sm">
                  Contact Us
                </Link>
                {/* The terms page does not exist yet; the spec shows the link but it goes nowhere. */}
                {/* biome-ignore lint/a11y/useValidAnchor: a placeholder link by design (spec section 2) */}
                <a
                  href="#"
                  className="btn btn-ghost btn-sm"
                  onClick={(event) => event.preventDefault()}
                  data-testid="terms-link"
                >
                  Terms of Service
                </a>
              </div>
            </section>

            <div className="card prose policy-updates">
              <h2>Policy Updates</h2>
              <p>
                We may update this policy from time to time. When we do, we change the date at the top of this page, and
                for significant changes we will notify you by email or through a notice on the site before they take
                effect.
              </p>
            </div>
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
