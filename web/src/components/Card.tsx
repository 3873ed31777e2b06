import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

/** A card under a titled heading (an icon before its words): a section of a dashboard or a detail page. */
export function Card({
  icon,
  title,
  testId,
  className,
  aside = false,
  children,
}: {
  icon: IconName;
  title: string;
  testId?: string;
  /** Classes beside `card`. */
  className?: string;
  /** An <aside> beside the page's main column instead of a <section>. */
  aside?: boolean;
  children: ReactNode;
}) {
  const Tag = aside ? 'aside' : 'section';
  return (
    <Tag className={className ? `card ${className}` : 'card'} data-testid={testId}>
      <h2 className="card-title">
        <Icon name={icon} /> {title}
      </h2>
      {children}
    </Tag>
  );
}

/** One term of a card's <dl>: its label and its value. */
export function Fact({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}
