import type { ReactNode } from 'react';

/**
 * The band at the top of a public page: eyebrow, heading and lead, then `children` (a search
 * box, a date). `narrow` centres it in a narrow column.
 */
export function PageHero({
  eyebrow,
  title,
  lead,
  narrow = false,
  children,
}: { eyebrow: string; title: string; lead: ReactNode; narrow?: boolean; children?: ReactNode }) {
  return (
    <section className="page-hero">
      <div className={narrow ? 'container narrow center-text' : 'container'}>
        <p className="eyebrow">{eyebrow}</p>
        <h1>{title}</h1>
        <p className="page-hero-lead">{lead}</p>
        {children}
      </div>
    </section>
  );
}
