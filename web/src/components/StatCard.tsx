import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import { QueryState, type QueryView } from './QueryState';
import './shared.css';

type Tone = 'blue' | 'green' | 'yellow' | 'teal' | 'grey';

/**
 * One counter of a dashboard: icon, number and what it counts. Without a value (not read yet)
 * it shows a dash: a zero would claim something nobody has read.
 */
export function StatCard({
  label,
  value,
  icon,
  tone = 'blue',
  testId,
}: {
  label: string;
  value: number | string | undefined;
  icon: IconName;
  tone?: Tone;
  testId?: string;
}) {
  return (
    <div className="card stat-card">
      <span className={`stat-icon stat-icon-${tone}`}>
        <Icon name={icon} size={22} />
      </span>
      <div>
        <p className="stat-label">{label}</p>
        <p className="stat-value" data-testid={testId}>
          {value ?? '—'}
        </p>
      </div>
    </div>
  );
}

/** The fields of `S` a counter can show. */
type CountOf<S> = { [K in keyof S]: S[K] extends number | string ? K : never }[keyof S];

/** One counter of a StatGrid: what it counts, the field of the grid's stats it shows. */
export interface Stat<S> {
  label: string;
  field: CountOf<S>;
  icon: IconName;
  tone: Tone;
  testId: string;
}

/** A row of counters read together; without stats (still loading) each shows a dash. */
export function StatGrid<S>({
  stats,
  cards,
  className = 'stat-grid',
}: { stats: S | undefined; cards: readonly Stat<S>[]; className?: string }) {
  return (
    <div className={className}>
      {cards.map(({ field, ...card }) => (
        <StatCard key={card.testId} {...card} value={stats?.[field] as number | string | undefined} />
      ))}
    </div>
  );
}

/**
 * The counters of one read: shown with dashes while it loads (never zeros nobody read), in place
 * of its failure (with Retry) if it fails. `children` lays out the StatGrids for the stats.
 */
export function StatsQuery<S>({
  query,
  what,
  testId,
  children,
}: {
  query: QueryView<S>;
  /** Completes "We could not load …". */
  what: string;
  /** Test id of the failure message. */
  testId: string;
  children: (stats: S | undefined) => ReactNode;
}) {
  const grids = (stats: S | undefined) => <div aria-busy={stats === undefined}>{children(stats)}</div>;
  return (
    <QueryState query={query} what={what} testId={testId} loading={grids(undefined)}>
      {grids}
    </QueryState>
  );
}
