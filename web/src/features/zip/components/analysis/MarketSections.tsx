import type { ZipAnalysis } from '@homereport/contracts';
import {
  NOT_AVAILABLE,
  formatChange,
  formatCount,
  formatPercent,
  formatRisk,
  formatUsd,
  formatWithUnit,
} from '../../zipFormat';
import { RiskBadge } from '../ZipCard';
import { Figure, Paragraph, Section, TextList } from './blocks';

/** The sections every analysis has (summary, market) and the demographics. */

export function SummarySection({ summary }: { summary: ZipAnalysis['executiveSummary'] }) {
  return (
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
  );
}

export function MarketSection({ market }: { market: ZipAnalysis['marketFundamentals'] }) {
  const inventory = market.inventoryLevels;
  return (
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
  );
}

export function DemographicsSection({ people }: { people: ZipAnalysis['demographics'] }) {
  const industries = people?.employment?.topIndustries;
  return (
    <Section title="Demographics" icon="users" testId="zip-demographics">
      <dl className="zip-figures zip-figures-3">
        <Figure label="Population" value={formatCount(people?.population?.total)} />
        <Figure label="Median Income" value={formatUsd(people?.householdIncome?.median)} />
        <Figure label="Bachelor's+" value={formatPercent(people?.education?.bachelors)} />
        <Figure label="Average Commute" value={formatWithUnit(people?.employment?.averageCommute, 'min')} />
        <Figure label="Unemployment Rate" value={formatPercent(people?.employment?.unemploymentRate)} />
      </dl>
      <h3 className="zip-subtitle">Top Industries</h3>
      {industries && industries.length > 0 ? (
        <ul className="zip-tags" data-testid="zip-industries">
          {industries.map((industry) => (
            <li key={industry}>{industry}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">{NOT_AVAILABLE}</p>
      )}
    </Section>
  );
}
