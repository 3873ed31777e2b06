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

/** One counter of a StatGrid: what it counts, read from the grid's stats. */
export interface Stat<S> {
  label: string;
  value: (stats: S) => number | string;
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
      {cards.map(({ value, ...card }) => (
        <StatCard key={card.testId} {...card} value={stats === undefined ? undefined : value(stats)} />
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
