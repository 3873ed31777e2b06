import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from './Icon';
import { QueryFailed } from './QueryState';

/** A place the reader may go next: a path of this site and the button's words. */
export type NextLink = { to: string; label: string };

type ResultPanelProps = {
  testId: string;
  /** An icon name is shown in a badge of `tone`; any other element (a spinner) is shown as it is. */
  icon: IconName | ReactElement;
  /** The badge's colour: green for a success, red for a problem, neutral for a notice. */
  tone?: 'green' | 'red' | 'neutral';
  title: string;
  children: ReactNode;
  /** The full-width button under the text, if the screen has one. */
  link?: NextLink;
  /** A centred row of buttons under the text instead, the first the primary one. */
  links?: readonly NextLink[];
  /** Classes beside `result-panel` (a `card` where the panel stands in a page of its own layout). */
  className?: string;
  /** h2 where the page around the panel already has its h1. */
  heading?: 'h1' | 'h2';
};

/**
 * The centred outcome of a screen: badge, heading, a few lines of text and where to go next. It
 * is also the whole page when there is nothing else to show (a report or ZIP code not found, a
 * refused read, a dead share link).
 */
export function ResultPanel({
  testId,
  icon,
  tone = 'green',
  title,
  children,
  link,
  links,
  className,
  heading: Heading = 'h1',
}: ResultPanelProps) {
  return (
    <div className={className ? `result-panel ${className}` : 'result-panel'} data-testid={testId}>
      {typeof icon === 'string' ? (
        <span
          className={tone === 'neutral' ? 'icon-badge icon-badge-lg' : `icon-badge icon-badge-lg icon-badge-${tone}`}
        >
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
      {links && <NextLinks links={links} />}
    </div>
  );
}

/** A centred row of buttons to go on with, the first the primary one. */
function NextLinks({ links }: { links: readonly NextLink[] }) {
  return (
    <div className="actions center">
      {links.map((next, index) => (
        <Link key={next.to} to={next.to} className={`btn ${index === 0 ? 'btn-primary' : 'btn-secondary'}`}>
          {next.label}
        </Link>
      ))}
    </div>
  );
}

/** A page that has nothing to show but why, and where to go instead: a ResultPanel card of its own. */
export function StatusScreen({
  icon = 'alert',
  tone = 'neutral',
  ...panel
}: Omit<ResultPanelProps, 'className' | 'heading' | 'link' | 'icon'> & { icon?: IconName }) {
  return (
    <div className="container narrow">
      <ResultPanel {...panel} icon={icon} tone={tone} className="card placeholder-card" />
    </div>
  );
}

/** A page whose one read failed: the failure with its Retry, and where to go instead. */
export function FailedScreen({
  links,
  ...failed
}: Parameters<typeof QueryFailed>[0] & { links?: readonly NextLink[] }) {
  return (
    <div className="container narrow">
      <QueryFailed {...failed} />
      {links && <NextLinks links={links} />}
    </div>
  );
}
