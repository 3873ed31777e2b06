import type { ZipAnalysis } from '@homereport/contracts';
import { type ReactNode, Suspense, lazy } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Icon, type IconName } from '../../../components/Icon';
import { LoadFailed } from '../../../components/QueryState';
import { SiteLayout } from '../../../components/SiteLayout';
import { PageSpinner, Spinner } from '../../../components/Spinner';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { useSession } from '../../../session/SessionProvider';
import { LOAD_ERROR, isNotFound, useZipAnalysis } from '../api/zipCodes';
import { RiskBadge, SampleNote, TierBadge } from '../components/ZipCard';
import { zipNav } from '../components/zipNav';
import {
  NOT_AVAILABLE,
  formatChange,
  formatCount,
  formatMonth,
  formatPercent,
  formatReportDate,
  formatRisk,
  formatText,
  formatUsd,
  formatWithUnit,
  lastMonths,
} from '../zipFormat';
import '../zip.css';

// The charts (and the chart library) arrive in their own chunk, after the page's text.
const PriceTrendChart = lazy(() => import('../components/ZipCharts').then((m) => ({ default: m.PriceTrendChart })));
const RentChart = lazy(() => import('../components/ZipCharts').then((m) => ({ default: m.RentChart })));

function ChartFallback({ height }: { height: number }) {
  return (
    <div className="zip-chart zip-chart-loading" style={{ height }}>
      <Spinner label="Loading chart" />
    </div>
  );
}

function Section({
  title,
  icon,
  testId,
  children,
}: { title: string; icon: IconName; testId: string; children: ReactNode }) {
  return (
    <section className="card zip-section" data-testid={testId} aria-labelledby={`${testId}-title`}>
      <h2 id={`${testId}-title`} className="zip-section-title">
        <span className="icon-badge icon-badge-sm">
          <Icon name={icon} size={18} />
        </span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function Figure({
  label,
  value,
  note,
  testId,
  text = false,
}: { label: string; value: ReactNode; note?: ReactNode; testId?: string; text?: boolean }) {
  return (
    <div className={text ? 'zip-figure zip-figure-text' : 'zip-figure'}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
      {/* A second dd of the same term: a <dl> holds only dt and dd groups (no p). */}
      {note && <dd className="zip-figure-note">{note}</dd>}
    </div>
  );
}

function TextList({ items, empty = NOT_AVAILABLE }: { items: readonly string[] | null | undefined; empty?: string }) {
  if (!items || items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="zip-bullets">
      {items.map((item, i) => (
        // Texts may repeat; their position is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: static list, never reordered
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

function Paragraph({ label, text }: { label: string; text: string | null | undefined }) {
  return (
    <div className="zip-paragraph">
      <h3>{label}</h3>
      <p>{formatText(text)}</p>
    </div>
  );
}

function forecastText(forecast: number | string | null | undefined): string {
  if (typeof forecast === 'number') return `${formatChange(forecast)} expected`;
  return formatText(forecast);
}

function Header({ analysis }: { analysis: ZipAnalysis }) {
  const meta = analysis.reportMetadata;
  return (
    <section className="page-hero zip-hero">
      <div className="container">
        <Link to="/zip" className="back-link">
          <span aria-hidden="true">←</span> Browse Other ZIP Codes
        </Link>
        <div className="zip-hero-title">
          <h1 data-testid="zip-detail-code">ZIP Code {analysis.zipCode}</h1>
          <TierBadge tier={meta.tier} testId="zip-detail-tier" />
          {meta.sample && <SampleNote />}
        </div>
        <p className="zip-hero-place" data-testid="zip-detail-place">
          {meta.location.city}, {meta.location.state}
        </p>
        <dl className="zip-hero-meta">
          <div>
            <dt>Report Date</dt>
            <dd>{formatReportDate(meta.reportDate)}</dd>
          </div>
          <div>
            <dt>Neighborhood</dt>
            <dd>{formatText(meta.location.neighborhood)}</dd>
          </div>
          <div>
            <dt>Investment Profile</dt>
            <dd>{formatText(meta.investmentProfile)}</dd>
          </div>
        </dl>
        {meta.sample && (
          <p className="zip-sample-banner" data-testid="zip-sample-banner">
            <Icon name="alert" size={16} /> Sample analysis: the figures are generated to show what an analysis looks
            like; they are not research on this ZIP code.
          </p>
        )}
      </div>
    </section>
  );
}

function Analysis({ analysis }: { analysis: ZipAnalysis }) {
  const summary = analysis.executiveSummary;
  const market = analysis.marketFundamentals;
  const inventory = market.inventoryLevels;
  const people = analysis.demographics;
  const trends = analysis.priceTrends;
  const monthly = trends?.twelveMonthTrend?.monthlyData ?? [];
  const rent = trends?.rentalMarket?.averageRent;
  const investment = analysis.investmentAnalysis;
  const outlook = analysis.outlook?.sixToTwelveMonths;
  const actions = analysis.actionableRecommendations;
  const rents = [
    { label: 'Studio', short: 'Studio', rent: rent?.studio },
    { label: '1 Bedroom', short: '1 BR', rent: rent?.oneBedroom },
    { label: '2 Bedrooms', short: '2 BR', rent: rent?.twoBedroom },
    { label: '3 Bedrooms', short: '3 BR', rent: rent?.threeBedroom },
  ];

  return (
    <div className="container zip-sections">
      <Section title="Executive Summary" icon="sparkle" testId="zip-summary">
        <div className="zip-paragraph">
          <h3>Key Takeaways</h3>
          <TextList items={summary.keyTakeaways} />
        </div>
        <Paragraph label="Investment Thesis" text={summary.investmentThesis} />
        <Paragraph label="Bottom Line" text={summary.bottomLineUpFront} />
        <dl className="zip-figures zip-figures-2">
          <Figure label="Risk Level" value={<RiskBadge level={summary.riskLevel} />} />
          <Figure label="Confidence" value={formatRisk(summary.confidenceLevel)} />
        </dl>
      </Section>

      <Section title="Market Fundamentals" icon="chart" testId="zip-market">
        <dl className="zip-figures">
          <Figure
            label="Median Price"
            value={formatUsd(market.medianSalePrice?.value)}
            note={`${formatChange(market.medianSalePrice?.yearOverYearChange)} year over year`}
            testId="zip-median-price"
          />
          <Figure
            label="Annual Appreciation"
            value={formatPercent(market.annualAppreciationRate?.oneYear)}
            note="1-year rate"
            testId="zip-appreciation"
          />
          <Figure label="Price per Sq Ft" value={formatUsd(market.pricePerSquareFoot?.value)} />
          <Figure label="Days on Market" value={formatCount(market.averageDaysOnMarket?.current)} note="average" />
        </dl>
        <h3 className="zip-subtitle">Inventory Analysis</h3>
        <dl className="zip-figures zip-figures-3">
          <Figure label="Months of Supply" value={formatCount(inventory?.monthsOfSupply)} />
          <Figure label="Active Listings" value={formatCount(inventory?.totalActiveListings)} />
          <Figure label="New Listings per Month" value={formatCount(inventory?.newListingsPerMonth)} />
        </dl>
      </Section>

      <Section title="Demographics" icon="users" testId="zip-demographics">
        <dl className="zip-figures zip-figures-3">
          <Figure label="Population" value={formatCount(people?.population?.total)} />
          <Figure label="Median Income" value={formatUsd(people?.householdIncome?.median)} />
          <Figure label="Bachelor's+" value={formatPercent(people?.education?.bachelors)} />
          <Figure label="Average Commute" value={formatWithUnit(people?.employment?.averageCommute, 'min')} />
          <Figure label="Unemployment Rate" value={formatPercent(people?.employment?.unemploymentRate)} />
        </dl>
        <h3 className="zip-subtitle">Top Industries</h3>
        {people?.employment?.topIndustries && people.employment.topIndustries.length > 0 ? (
          <ul className="zip-tags" data-testid="zip-industries">
            {people.employment.topIndustries.map((industry) => (
              <li key={industry}>{industry}</li>
            ))}
          </ul>
        ) : (
          <p className="muted">{NOT_AVAILABLE}</p>
        )}
      </Section>

      {trends && (
        <Section title="Price Trends" icon="trending" testId="zip-trends">
          <div className="zip-paragraph">
            <h3>12-Month Trend</h3>
            <p>{formatText(trends.twelveMonthTrend?.description)}</p>
          </div>
          {monthly.length > 0 && (
            <div className="zip-trend-layout">
              <Suspense fallback={<ChartFallback height={290} />}>
                <PriceTrendChart monthly={monthly} />
              </Suspense>
              <div>
                <h3 className="zip-subtitle">Last 6 Months</h3>
                <table className="zip-table" data-testid="zip-last-months">
                  <thead>
                    <tr>
                      <th scope="col">Month</th>
                      <th scope="col">Median Price</th>
                    </tr>
                  </thead>
                  <tbody>
                    {lastMonths(monthly, 6).map((m) => (
                      <tr key={m.month}>
                        <td>{formatMonth(m.month)}</td>
                        <td>{formatUsd(m.medianPrice)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          )}
          <h3 className="zip-subtitle">Rental Market</h3>
          <div className="zip-trend-layout">
            <dl className="zip-figures zip-figures-2" data-testid="zip-rents">
              {rents.map((r) => (
                <Figure key={r.label} label={r.label} value={formatUsd(r.rent)} />
              ))}
              <Figure label="Gross Yield" value={formatPercent(trends.rentalMarket?.grossYield)} testId="zip-yield" />
            </dl>
            {rents.some((r) => typeof r.rent === 'number') && (
              <Suspense fallback={<ChartFallback height={270} />}>
                <RentChart rents={rents} />
              </Suspense>
            )}
          </div>
        </Section>
      )}

      {investment && (
        <Section title="Investment Analysis" icon="building" testId="zip-investment">
          <h3 className="zip-subtitle">Best Segments</h3>
          {investment.opportunities?.bestSegments && investment.opportunities.bestSegments.length > 0 ? (
            <div className="zip-segments">
              {investment.opportunities.bestSegments.map((s) => (
                <article key={s.segment} className="zip-segment">
                  <h4>{s.segment}</h4>
                  <p>{formatText(s.rationale)}</p>
                  <dl className="zip-inline-figures">
                    <div>
                      <dt>Expected Return</dt>
                      <dd>{formatPercent(s.expectedReturn)}</dd>
                    </div>
                    <div>
                      <dt>Risk Level</dt>
                      <dd>
                        <RiskBadge level={s.riskLevel} />
                      </dd>
                    </div>
                  </dl>
                </article>
              ))}
            </div>
          ) : (
            <p className="muted">{NOT_AVAILABLE}</p>
          )}
          <h3 className="zip-subtitle">Risk Factors</h3>
          {investment.riskFactors && Object.keys(investment.riskFactors).length > 0 ? (
            <ul className="zip-risks" data-testid="zip-risk-factors">
              {Object.entries(investment.riskFactors).map(([name, factor]) => (
                <li key={name}>
                  <div className="zip-risk-head">
                    <strong>{name}</strong>
                    <RiskBadge level={factor.level} />
                  </div>
                  <p>{formatText(factor.explanation)}</p>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{NOT_AVAILABLE}</p>
          )}
        </Section>
      )}

      {outlook && (
        <Section title="Market Outlook" icon="clock" testId="zip-outlook">
          <dl className="zip-figures zip-figures-2">
            <Figure
              label="Price Movement (6-12 months)"
              value={forecastText(outlook.priceMovement?.forecast)}
              note={`Confidence: ${formatRisk(outlook.priceMovement?.confidence)}`}
            />
            <Figure label="Inventory Changes" value={formatText(outlook.inventoryChanges)} text />
          </dl>
          <div className="zip-two-lists">
            <div>
              <h3 className="zip-subtitle">Major Catalysts</h3>
              <TextList items={outlook.majorCatalysts} />
            </div>
            <div>
              <h3 className="zip-subtitle">Headwinds</h3>
              <TextList items={outlook.headwinds} />
            </div>
          </div>
        </Section>
      )}

      {actions && (
        <Section title="Actionable Recommendations" icon="check" testId="zip-actions">
          <div className="zip-two-lists">
            <div>
              <h3 className="zip-subtitle">Immediate Actions</h3>
              <TextList items={actions.immediateActions} />
            </div>
            <div>
              <h3 className="zip-subtitle">Next Steps</h3>
              <TextList items={actions.nextSteps} />
            </div>
          </div>
        </Section>
      )}

      <div className="zip-bottom-links" data-testid="zip-bottom-links">
        <Link to="/zip" className="btn btn-secondary">
          <Icon name="arrowLeft" size={18} /> Browse Other ZIP Codes
        </Link>
        <Link to="/properties" className="btn btn-secondary">
          View Property Reports
        </Link>
        <Link to="/request" className="btn btn-primary">
          Request Property Assessment
        </Link>
      </div>
    </div>
  );
}

function Problem({
  title,
  text,
  testId,
  children,
}: { title: string; text: string; testId: string; children: ReactNode }) {
  return (
    <section className="section">
      <div className="container">
        <div className="card empty-state zip-problem" data-testid={testId}>
          <span className="icon-badge icon-badge-lg icon-badge-red">
            <Icon name="pin" size={28} />
          </span>
          <h1>{title}</h1>
          <p>{text}</p>
          <div className="actions center">{children}</div>
        </div>
      </div>
    </section>
  );
}

export function ZipDetailPage() {
  const { zipCode = '' } = useParams();
  useDocumentTitle(`ZIP Code ${zipCode}`);
  const { user } = useSession();
  const detail = useZipAnalysis(zipCode);

  let body: ReactNode;
  if (detail.isPending) {
    body = <PageSpinner label="Loading ZIP code analysis" />;
  } else if (detail.isError && isNotFound(detail.error)) {
    body = (
      <Problem title="ZIP Code Not Found" text="ZIP code not found in our database" testId="zip-not-found">
        <Link to="/zip" className="btn btn-primary">
          Browse ZIP Codes
        </Link>
        <Link to="/properties" className="btn btn-secondary">
          View Property Reports
        </Link>
      </Problem>
    );
  } else if (detail.isError) {
    body = (
      <section className="section">
        <div className="container">
          <LoadFailed
            what="ZIP code data"
            message={LOAD_ERROR}
            error={detail.error}
            onRetry={() => void detail.refetch()}
            retrying={detail.isFetching}
            testId="zip-detail-error"
          />
          <Link to="/zip" className="btn btn-secondary">
            Browse ZIP Codes
          </Link>
        </div>
      </section>
    );
  } else if (!detail.data) {
    body = (
      <Problem
        title="ZIP Code Analysis Not Available"
        text="This ZIP code analysis is not available in our database."
        testId="zip-not-available"
      >
        <Link to="/zip" className="btn btn-primary">
          Browse ZIP Codes
        </Link>
      </Problem>
    );
  } else {
    body = (
      <>
        <Header analysis={detail.data} />
        <Analysis analysis={detail.data} />
      </>
    );
  }

  return <SiteLayout nav={zipNav(Boolean(user), user?.role === 'admin')}>{body}</SiteLayout>;
}
