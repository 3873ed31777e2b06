import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../../components/Icon';
import { mailtoHref, mapHref, site, telHref } from '../../config/site';

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

function ContactMethods() {
  return (
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
  );
}

function BusinessHours() {
  return (
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
  );
}

function QuickLinks() {
  return (
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
  );
}

/** The column beside the form: ways to reach us, business hours and quick links. */
export function ContactSidebar() {
  return (
    <aside className="contact-side">
      <ContactMethods />
      <BusinessHours />
      <QuickLinks />
    </aside>
  );
}
