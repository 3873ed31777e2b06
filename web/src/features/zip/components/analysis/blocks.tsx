import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../../../components/Icon';
import { Spinner } from '../../../../components/Spinner';
import { NOT_AVAILABLE, formatText } from '../../zipFormat';

/** The building blocks every section of a ZIP code analysis is made of. */

export function Section({
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

export function Figure({
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

export function TextList({
  items,
  empty = NOT_AVAILABLE,
}: { items: readonly string[] | null | undefined; empty?: string }) {
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

export function Paragraph({ label, text }: { label: string; text: string | null | undefined }) {
  return (
    <div className="zip-paragraph">
      <h3>{label}</h3>
      <p>{formatText(text)}</p>
    </div>
  );
}

/** Two lists side by side under their own headings (catalysts and headwinds, actions and next steps). */
export function TwoLists({
  left,
  right,
}: {
  left: { title: string; items: readonly string[] | null | undefined };
  right: { title: string; items: readonly string[] | null | undefined };
}) {
  return (
    <div className="zip-two-lists">
      {[left, right].map((list) => (
        <div key={list.title}>
          <h3 className="zip-subtitle">{list.title}</h3>
          <TextList items={list.items} />
        </div>
      ))}
    </div>
  );
}

export function ChartFallback({ height }: { height: number }) {
  return (
    <div className="zip-chart zip-chart-loading" style={{ height }}>
      <Spinner label="Loading chart" />
    </div>
  );
}
