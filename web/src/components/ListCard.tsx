import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from './Icon';
import { QueryState, type QueryView } from './QueryState';
import './shared.css';

/**
 * A card that lists what one read answered (the dashboards' requests, activity, saved reports):
 * a heading, then QueryState's loading and failed screens, a line of its own when the list is
 * empty, or the rows. Test ids follow the card's: `<testId>-failed` (with `-retry`) and
 * `<testId>-empty`.
 */
export function ListCard<T>({
  testId,
  icon,
  title,
  action,
  query,
  what,
  empty,
  notice,
  footer,
  children,
}: {
  testId: string;
  icon: IconName;
  title: string;
  /** A link beside the heading. */
  action?: ReactNode;
  query: QueryView<T[]>;
  /** Completes "We could not load …" and "Loading …". */
  what: string;
  /** What an empty list says, and where the reader may go instead. */
  empty: { text: string; link?: { to: string; label: string } };
  /** Above the list, whatever the read answered: the outcome of an action on a row. */
  notice?: ReactNode;
  /** Below the list, whatever the read answered. */
  footer?: ReactNode;
  /** The rows (ListRow), for a list with at least one item. */
  children: (items: T[]) => ReactNode;
}) {
  const heading = (
    <h2 className="card-title">
      <Icon name={icon} /> {title}
    </h2>
  );
  return (
    <section className="card" data-testid={testId}>
      {action ? (
        <div className="card-heading-row">
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {notice}
      <QueryState
        query={query}
        what={what}
        testId={`${testId}-failed`}
        isEmpty={(items) => items.length === 0}
        empty={
          <div className="empty-inline" data-testid={`${testId}-empty`}>
            <p>{empty.text}</p>
            {empty.link && (
              <Link to={empty.link.to} className="btn btn-secondary btn-sm">
                {empty.link.label}
              </Link>
            )}
          </div>
        }
      >
        {(items) => <ul className="list-rows">{children(items)}</ul>}
      </QueryState>
      {footer}
    </section>
  );
}

/** One row of a ListCard: what it is and when on the left, its status and ways in on the right. */
export function ListRow({
  testId,
  id,
  title,
  meta,
  notes,
  side,
}: {
  testId: string;
  /** The item's id, as `data-id` for tests that look for one row. */
  id?: string;
  title: ReactNode;
  meta: ReactNode;
  notes?: ReactNode;
  side: ReactNode;
}) {
  return (
    <li className="list-row" data-testid={testId} data-id={id}>
      <div className="list-row-main">
        <p className="list-row-title">{title}</p>
        <p className="list-row-meta">{meta}</p>
        {notes && <p className="list-row-notes">{notes}</p>}
      </div>
      <div className="list-row-side">{side}</div>
    </li>
  );
}
