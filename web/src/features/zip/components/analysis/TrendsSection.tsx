import type { ZipAnalysis } from '@homereport/contracts';
import { Suspense, lazy } from 'react';
import { formatMonth, formatPercent, formatText, formatUsd, lastMonths } from '../../zipFormat';
import { ChartFallback, Figure, Section } from './blocks';

// The charts (and the chart library) arrive in their own chunk, after the page's text.
const PriceTrendChart = lazy(() => import('../../ZipCharts').then((m) => ({ default: m.PriceTrendChart })));
const RentChart = lazy(() => import('../../ZipCharts').then((m) => ({ default: m.RentChart })));

type Monthly = NonNullable<NonNullable<NonNullable<ZipAnalysis['priceTrends']>['twelveMonthTrend']>['monthlyData']>;

/** The trend chart beside the last six months' median prices. */
function TwelveMonths({ monthly }: { monthly: Monthly }) {
  return (
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
  );
}

export function TrendsSection({ trends }: { trends: NonNullable<ZipAnalysis['priceTrends']> }) {
  const monthly = trends.twelveMonthTrend?.monthlyData ?? [];
  const rent = trends.rentalMarket?.averageRent;
  const rents = [
    { label: 'Studio', short: 'Studio', rent: rent?.studio },
    { label: '1 Bedroom', short: '1 BR', rent: rent?.oneBedroom },
    { label: '2 Bedrooms', short: '2 BR', rent: rent?.twoBedroom },
    { label: '3 Bedrooms', short: '3 BR', rent: rent?.threeBedroom },
  ];
  return (
    <Section title="Price Trends" icon="trending" testId="zip-trends">
      <div className="zip-paragraph">
        <h3>12-Month Trend</h3>
        <p>{formatText(trends.twelveMonthTrend?.description)}</p>
      </div>
      {monthly.length > 0 && <TwelveMonths monthly={monthly} />}
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
  );
}
