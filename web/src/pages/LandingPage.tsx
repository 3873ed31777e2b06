import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../components/Icon';
import { SiteLayout } from '../components/SiteLayout';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../session/SessionProvider';

type Feature = { icon: IconName; title: string; text: string };

const features: Feature[] = [
  {
    icon: 'chart',
    title: 'Data-Driven Analysis',
    text: 'Valuations built from public records, MLS listings and current market data, processed by AI models that spot the trends a spreadsheet misses.',
  },
  {
    icon: 'file',
    title: 'Professional Reports',
    text: 'Clear documents covering property analysis, investment strategy, school districts and neighborhood insights, ready to share with a partner, lender or agent.',
  },
  {
    icon: 'pin',
    title: 'Location Intelligence',
    text: 'ZIP code market analyses with appreciation, inventory, demographics and rental yields, so you understand the block as well as the building.',
  },
  {
    icon: 'users',
    title: 'Expert Team',
    text: 'Every report is reviewed by property analysts who check the numbers and add the context that only local market experience brings.',
  },
  {
    icon: 'clock',
    title: 'Fast Turnaround',
    text: 'Requests are reviewed within 24 hours and reports delivered within 3-5 business days, so you can move before the market does.',
  },
  {
    icon: 'trending',
    title: 'Investment Focus',
    text: 'ROI and rental potential, risk levels and strategy recommendations written for first-time buyers and seasoned investors alike.',
  },
];

/** The four documents of a report, as the sample report lists them. */
const REPORT_DOCUMENTS = [
  'Comprehensive Property Analysis',
  'Investment Strategy',
  'School District Analysis',
  'Neighborhood Insights',
];

const steps = [
  {
    title: 'Request a property',
    text: 'Send us the address and, if you have one, the listing link. No account needed.',
  },
  {
    title: 'We analyze it',
    text: 'AI-powered analysis of records, listings and market data, reviewed by our experts.',
  },
  {
    title: 'Read your report',
    text: 'Valuation, strategy, schools and neighborhood in one report, within 3-5 business days.',
  },
];

/** A section of the landing page under its heading: eyebrow, title (`id` names the section) and lead. */
function LandingSection({
  id,
  eyebrow,
  title,
  lead,
  alt = false,
  children,
}: { id: string; eyebrow: string; title: string; lead?: string; alt?: boolean; children: ReactNode }) {
  return (
    <section className={alt ? 'section section-alt' : 'section'} aria-labelledby={id}>
      <div className="container">
        <div className="section-heading">
          <p className="eyebrow">{eyebrow}</p>
          <h2 id={id}>{title}</h2>
          {lead && <p className="muted">{lead}</p>}
        </div>
        {children}
      </div>
    </section>
  );
}

export function LandingPage() {
  // The shell's own title and description (web/index.html) are the landing page's.
  useDocumentTitle(null);
  const { user } = useSession();
  return (
    <SiteLayout>
      <section className="hero">
        <div className="container hero-inner">
          <div className="hero-copy">
            <p className="hero-badge">
              <Icon name="sparkle" size={16} /> AI-powered analysis, reviewed by experts
            </p>
            <h1>
              Know the property <span className="text-gradient">before you buy it</span>
            </h1>
            <p className="hero-lead">
              On-demand assessment reports for any U.S. residential property: valuation, investment strategy, market
              insights, schools, neighborhood, ROI and rental potential, for home buyers and investors.
            </p>
            <div className="actions">
              <Link to="/request" className="btn btn-primary btn-lg">
                Request Coverage <Icon name="arrowRight" size={18} />
              </Link>
              <Link to="/properties" className="btn btn-light btn-lg">
                Browse Reports
              </Link>
            </div>
          </div>
          <div className="hero-visual" aria-hidden="true">
            <div className="mock-report">
              <p className="mock-caption">Sample report</p>
              <div className="mock-report-head">
                <span className="mock-dot" />
                <div>
                  <strong>1428 Maple Avenue</strong>
                  <span>Austin, TX 78704</span>
                </div>
                <span className="badge badge-green">Completed</span>
              </div>
              <div className="mock-metrics">
                <div>
                  <span>Estimated value</span>
                  <strong>$612,000</strong>
                </div>
                <div>
                  <span>1-yr appreciation</span>
                  <strong className="up">+5.4%</strong>
                </div>
                <div>
                  <span>Gross yield</span>
                  <strong>6.1%</strong>
                </div>
              </div>
              <div className="mock-bars">
                {[38, 46, 42, 55, 61, 58, 70, 76].map((height, index) => (
                  <span key={`${index}-${height}`} style={{ height: `${height}%` }} />
                ))}
              </div>
              <ul className="mock-sections">
                {REPORT_DOCUMENTS.map((title) => (
                  <li key={title}>
                    <Icon name="check" size={16} /> {title}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </div>
        <div className="container hero-stats">
          <div>
            <strong>24 hours</strong>
            <span>to review every request</span>
          </div>
          <div>
            <strong>3-5 days</strong>
            <span>business days to your report</span>
          </div>
          <div>
            <strong>10 credits</strong>
            <span>free every month</span>
          </div>
        </div>
      </section>

      <LandingSection
        id="features-title"
        eyebrow="Why HomeReport"
        title="Everything you need to judge a property"
        lead="AI-powered analysis gives you breadth; our experts give you judgement. Together they give you a report you can act on."
      >
        <div className="grid grid-3">
          {features.map((feature) => (
            <article key={feature.title} className="card feature-card">
              <span className="icon-badge">
                <Icon name={feature.icon} size={22} />
              </span>
              <h3>{feature.title}</h3>
              <p>{feature.text}</p>
            </article>
          ))}
        </div>
      </LandingSection>

      <LandingSection id="steps-title" eyebrow="How it works" title="From address to answer in three steps" alt>
        <ol className="steps">
          {steps.map((step, index) => (
            <li key={step.title} className="card step-card">
              <span className="step-number">{index + 1}</span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </LandingSection>

      <section className="section">
        <div className="container">
          <div className="cta-band">
            <div>
              <h2>Ready to make a confident decision?</h2>
              <p>Tell us which property you are considering, or create a free account to open completed reports.</p>
            </div>
            <div className="actions">
              <Link to="/request" className="btn btn-light btn-lg">
                Request Coverage Now
              </Link>
              {user ? (
                <Link to={user.role === 'admin' ? '/admin' : '/dashboard'} className="btn btn-outline-light btn-lg">
                  Go to Your Dashboard
                </Link>
              ) : (
                <Link to="/register" className="btn btn-outline-light btn-lg">
                  Create Free Account
                </Link>
              )}
            </div>
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
