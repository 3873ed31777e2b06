import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from './Icon';

type ResultPanelProps = {
  testId: string;
  /** An icon name is shown in the green badge; any other element (a spinner) is shown as it is. */
  icon: IconName | ReactElement;
  title: string;
  children: ReactNode;
  /** The full-width button under the text, if the screen has one. */
  link?: { to: string; label: string };
  /** Classes beside `result-panel` (a `card` where the panel stands in a page of its own layout). */
  className?: string;
  /** h2 where the page around the panel already has its h1. */
  heading?: 'h1' | 'h2';
};

/** The centred outcome of a screen: badge, heading, a few lines of text and where to go next. */
export function ResultPanel({
  testId,
  icon,
  title,
  children,
  link,
  className,
  heading: Heading = 'h1',
}: ResultPanelProps) {
  return (
    <div className={className ? `result-panel ${className}` : 'result-panel'} data-testid={testId}>
      {typeof icon === 'string' ? (
        <span className="icon-badge icon-badge-lg icon-badge-green">
          <Icon name={icon} size={28} />
        </span>
      ) : (
        icon
      )}
      <Heading>{title}</Heading>
      {children}
      {link && (
        <Link to={link.to} className="btn btn-primary btn-block">
          {link.label}
        </Link>
      )}
    </div>
  );
}
