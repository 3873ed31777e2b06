import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../components/Icon';
import { SearchBox } from '../components/ListControls';
import { PageHero } from '../components/PageHero';
import { SiteLayout } from '../components/SiteLayout';
import { mailtoHref, site, telHref } from '../config/site';
import { faqCategories } from '../help/faqData';
import { countFaqItems, searchFaq } from '../help/searchFaq';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';

const categoryIcons: Record<string, IconName> = {
  'getting-started': 'sparkle',
  'account-billing': 'card',
  'reports-data': 'chart',
  'technical-support': 'settings',
};

const startCards: { to: string; icon: IconName; title: string; text: string }[] = [
  {
    to: '/request',
    icon: 'file',
    title: 'Request Coverage',
    text: 'Ask us to assess a specific property. Reviewed within 24 hours.',
  },
  {
    to: '/properties',
    icon: 'home',
    title: 'Browse Reports',
    text: 'See every property we have already assessed.',
  },
  {
    to: '/register',
    icon: 'user',
    title: 'Create an Account',
    text: 'Free, with 10 report credits every 30 days.',
  },
];

export function HelpPage() {
  useDocumentTitle(
    'Help Center',
    'Answers about HomeReport: requesting a property assessment, report credits, ZIP code analyses and your account.',
  );
  const { user } = useSession();
  // A signed-in visitor has an account: their dashboard instead of "Create an Account".
  const cards = user
    ? startCards.map((card) =>
        card.to === '/register'
          ? {
              to: user.role === 'admin' ? '/admin' : '/dashboard',
              icon: card.icon,
              title: 'Your Dashboard',
              text: 'Your credits, your requests and the reports you opened.',
            }
          : card,
      )
    : startCards;
  const [query, setQuery] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const results = useMemo(() => searchFaq(faqCategories, query), [query]);
  const matches = countFaqItems(results);

  return (
    <SiteLayout>
      <PageHero
        eyebrow="Help Center"
        title="How can we help?"
        lead="Answers about reports, credits, accounts and our data."
        narrow
      >
        <SearchBox
          state={{ search: query, setSearch: setQuery }}
          label="Search questions and answers..."
          testId="help-search"
        />
      </PageHero>

      <section className="section section-tight">
        <div className="container">
          <div className="grid grid-3">
            {cards.map((card) => (
              <Link key={card.to} to={card.to} className="card link-card">
                <span className="icon-badge">
                  <Icon name={card.icon} size={22} />
                </span>
                <div>
                  <h2>{card.title}</h2>
                  <p className="muted">{card.text}</p>
                </div>
                <Icon name="arrowRight" size={18} className="link-card-arrow" />
              </Link>
            ))}
          </div>
        </div>
      </section>

      <section className="section section-tight" aria-labelledby="faq-title">
        <div className="container narrow">
          <div className="faq-header">
            <h2 id="faq-title">Frequently Asked Questions</h2>
            {query.trim() !== '' && (
              <p className="muted" aria-live="polite" data-testid="help-result-count">
                {matches === 1 ? '1 result' : `${matches} results`} for “{query.trim()}”
              </p>
            )}
          </div>

          {results.length === 0 ? (
            <div className="card empty-state" data-testid="help-no-results">
              <Icon name="search" size={28} />
              <h3>No answers match “{query.trim()}”</h3>
              <p className="muted">
                Try other words, or <Link to="/contact">contact our team</Link> and we will answer you directly.
              </p>
            </div>
          ) : (
            results.map((category) => (
              <div key={category.id} className="faq-category" data-testid={`faq-category-${category.id}`}>
                <h3 className="faq-category-title">
                  <span className="icon-badge icon-badge-sm">
                    <Icon name={categoryIcons[category.id] ?? 'help'} size={18} />
                  </span>
                  {category.title}
                </h3>
                <div className="accordion">
                  {category.items.map((item) => {
                    const open = openId === item.id;
                    return (
                      <div key={item.id} className={`accordion-item${open ? ' open' : ''}`}>
                        <h4>
                          <button
                            type="button"
                            className="accordion-trigger"
                            aria-expanded={open}
                            aria-controls={`faq-answer-${item.id}`}
                            id={`faq-question-${item.id}`}
                            onClick={() => setOpenId(open ? null : item.id)}
                          >
                            <span>{item.question}</span>
                            <Icon name="chevronDown" size={20} className="accordion-chevron" />
                          </button>
                        </h4>
                        <section
                          id={`faq-answer-${item.id}`}
                          aria-labelledby={`faq-question-${item.id}`}
                          className="accordion-panel"
                          hidden={!open}
                        >
                          <p>{item.answer}</p>
                        </section>
                      </div>
                    );
                  })}
                </div>
              </div>
            ))
          )}
        </div>
      </section>

      <section className="section">
        <div className="container">
          <div className="still-help" data-testid="still-need-help">
            <div className="still-help-copy">
              <h2>Still Need Help?</h2>
              <p>Our support team is happy to answer anything the help center does not.</p>
            </div>
            <div className="still-help-options">
              <a href={mailtoHref(site.supportEmail)} className="still-help-option">
                <Icon name="mail" size={22} />
                <span>
                  <strong>Email Support</strong>
                  <small>{site.supportEmail}</small>
                </span>
              </a>
              <a href={telHref(site.supportPhone)} className="still-help-option">
                <Icon name="phone" size={22} />
                <span>
                  <strong>Phone Support</strong>
                  <small>{site.supportPhone}</small>
                </span>
              </a>
              <a href={site.liveChatUrl} target="_blank" rel="noopener noreferrer" className="still-help-option">
                <Icon name="chat" size={22} />
                <span>
                  <strong>Live Chat</strong>
                  <small>Available 9AM-6PM EST</small>
                </span>
              </a>
            </div>
            <div className="still-help-links">
              <Link to="/contact" className="btn btn-light">
                Contact Us
              </Link>
              <Link to="/privacy" className="btn btn-outline-light">
                Privacy Policy
              </Link>
            </div>
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
