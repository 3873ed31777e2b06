import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { Icon, type IconName } from './Icon';
import { SiteLayout } from './SiteLayout';

type ComingSoonProps = {
  title: string;
  description: string;
  icon?: IconName;
  children?: ReactNode;
};

/** Stand-in for a screen that a later issue builds; keeps the route, title and guard in place. */
export function ComingSoon({ title, description, icon = 'sparkle', children }: ComingSoonProps) {
  useDocumentTitle(title);
  return (
    <SiteLayout>
      <section className="section">
        <div className="container narrow">
          <div className="card placeholder-card">
            <span className="icon-badge icon-badge-lg">
              <Icon name={icon} size={28} />
            </span>
            <h1>{title}</h1>
            <p className="muted">{description}</p>
            <ComingSoonNote />
            {children}
            <div className="actions center">
              <Link to="/" className="btn btn-secondary">
                Go Home
              </Link>
              <Link to="/help" className="btn btn-ghost">
                Visit Help Center
              </Link>
            </div>
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}

/** The note on a screen, or part of one, that a later issue builds. */
export function ComingSoonNote() {
  return <p className="coming-soon">Coming soon: this page is being built.</p>;
}
