import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon';

/** Static sample figures (spec: a static teaser); the real analyses live under /zip. */
const featuredMarkets = [
  {
    zip: '94027',
    place: 'Atherton, CA',
    tier: 'Tier 1',
    tierLabel: 'Ultra-Premium',
    medianPrice: '$7,950,000',
    appreciation: '6.2%',
  },
  {
    zip: '78704',
    place: 'Austin, TX',
    tier: 'Tier 2',
    tierLabel: 'High-Growth',
    medianPrice: '$725,000',
    appreciation: '8.4%',
  },
  {
    zip: '44107',
    place: 'Lakewood, OH',
    tier: 'Tier 3',
    tierLabel: 'Emerging',
    medianPrice: '$265,000',
    appreciation: '9.1%',
  },
];

const tiers = [
  { name: 'Tier 1 Ultra-Premium', text: 'Established luxury markets with scarce inventory and steady value.' },
  { name: 'Tier 2 High-Growth', text: 'Fast-appreciating markets driven by jobs and migration.' },
  { name: 'Tier 3 Emerging', text: 'Affordable markets with rising demand and strong rental yields.' },
];

export function ZipMarketTeaser() {
  return (
    <section className="section section-alt" data-testid="zip-teaser">
      <div className="container">
        <div className="section-heading">
          <p className="eyebrow">Location Intelligence</p>
          <h2>Market Analysis by ZIP Code</h2>
          <p className="muted">
            Appreciation, inventory, demographics and rental yields for the markets investors watch. Sample figures
            below.
          </p>
        </div>
        <div className="grid grid-3">
          {featuredMarkets.map((market) => (
            <div key={market.zip} className="card zip-teaser-card">
              <div className="zip-teaser-head">
                <div>
                  <p className="zip-teaser-zip">{market.zip}</p>
                  <p className="muted">{market.place}</p>
                </div>
                <span className={`tier-pill tier-pill-${market.tier.slice(-1)}`}>{market.tier}</span>
              </div>
              <p className="zip-teaser-label">{market.tierLabel}</p>
              <dl className="zip-teaser-figures">
                <div>
                  <dt>Median Price</dt>
                  <dd>{market.medianPrice}</dd>
                </div>
                <div>
                  <dt>Appreciation</dt>
                  <dd>{market.appreciation}</dd>
                </div>
              </dl>
            </div>
          ))}
        </div>
        <div className="tier-legend">
          {tiers.map((tier) => (
            <div key={tier.name}>
              <strong>{tier.name}</strong>
              <span>{tier.text}</span>
            </div>
          ))}
        </div>
        <div className="actions center">
          <Link to="/zip" className="btn btn-primary" data-testid="zip-teaser-link">
            Explore ZIP Code Analysis <Icon name="arrowRight" size={18} />
          </Link>
        </div>
      </div>
    </section>
  );
}
