import type { ZipAnalysis } from '@homereport/contracts';
import { NOT_AVAILABLE, formatChange, formatPercent, formatRisk, formatText } from '../../zipFormat';
import { RiskBadge } from '../ZipCard';
import { Figure, Section, TwoLists } from './blocks';

/** What an investor does with the analysis: segments and risks, the outlook, the next actions. */

type Investment = NonNullable<ZipAnalysis['investmentAnalysis']>;

function BestSegments({ segments }: { segments: NonNullable<Investment['opportunities']>['bestSegments'] }) {
  if (!segments || segments.length === 0) return <p className="muted">{NOT_AVAILABLE}</p>;
  return (
    <div className="zip-segments">
      {segments.map((s) => (
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
  );
}

function RiskFactors({ factors }: { factors: Investment['riskFactors'] }) {
  if (!factors || Object.keys(factors).length === 0) return <p className="muted">{NOT_AVAILABLE}</p>;
  return (
    <ul className="zip-risks" data-testid="zip-risk-factors">
      {Object.entries(factors).map(([name, factor]) => (
        <li key={name}>
          <div className="zip-risk-head">
            <strong>{name}</strong>
            <RiskBadge level={factor.level} />
          </div>
          <p>{formatText(factor.explanation)}</p>
        </li>
      ))}
    </ul>
  );
}

export function InvestmentSection({ investment }: { investment: Investment }) {
  return (
    <Section title="Investment Analysis" icon="building" testId="zip-investment">
      <h3 className="zip-subtitle">Best Segments</h3>
      <BestSegments segments={investment.opportunities?.bestSegments} />
      <h3 className="zip-subtitle">Risk Factors</h3>
      <RiskFactors factors={investment.riskFactors} />
    </Section>
  );
}

function forecastText(forecast: number | string | null | undefined): string {
  if (typeof forecast === 'number') return `${formatChange(forecast)} expected`;
  return formatText(forecast);
}

export function OutlookSection({
  outlook,
}: { outlook: NonNullable<NonNullable<ZipAnalysis['outlook']>['sixToTwelveMonths']> }) {
  return (
    <Section title="Market Outlook" icon="clock" testId="zip-outlook">
      <dl className="zip-figures zip-figures-2">
        <Figure
          label="Price Movement (6-12 months)"
          value={forecastText(outlook.priceMovement?.forecast)}
          note={`Confidence: ${formatRisk(outlook.priceMovement?.confidence)}`}
        />
        <Figure label="Inventory Changes" value={formatText(outlook.inventoryChanges)} text />
      </dl>
      <TwoLists
        left={{ title: 'Major Catalysts', items: outlook.majorCatalysts }}
        right={{ title: 'Headwinds', items: outlook.headwinds }}
      />
    </Section>
  );
}

export function ActionsSection({ actions }: { actions: NonNullable<ZipAnalysis['actionableRecommendations']> }) {
  return (
    <Section title="Actionable Recommendations" icon="check" testId="zip-actions">
      <TwoLists
        left={{ title: 'Immediate Actions', items: actions.immediateActions }}
        right={{ title: 'Next Steps', items: actions.nextSteps }}
      />
    </Section>
  );
}
