import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

/** A card of a page's own: its titled heading (`<testId>-title`), which names the section, then its content. */
export function CardSection({
  testId,
  icon,
  title,
  className,
  children,
}: { testId: string; icon: IconName; title: string; className: string; children: ReactNode }) {
  return (
    <section className={`card ${className}`} aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h2 className="card-title" id={`${testId}-title`}>
        <Icon name={icon} /> {title}
      </h2>
      {children}
    </section>
  );
}
