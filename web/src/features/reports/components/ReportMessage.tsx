import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon';

/** A report screen that has no report to show (not found, refused, a dead share link): why, and where to go. */
export function ReportMessage({
  testId,
  title,
  children,
  links,
}: {
  testId: string;
  title: string;
  children: ReactNode;
  links: { to: string; label: string }[];
}) {
  return (
    <div className="container narrow">
      <div className="card placeholder-card" data-testid={testId}>
        <span className="icon-badge icon-badge-lg">
          <Icon name="alert" size={28} />
        </span>
        <h1>{title}</h1>
        {children}
        <div className="actions center">
          {links.map((link, index) => (
            <Link key={link.to} to={link.to} className={`btn ${index === 0 ? 'btn-primary' : 'btn-secondary'}`}>
              {link.label}
            </Link>
          ))}
        </div>
      </div>
    </div>
  );
}
