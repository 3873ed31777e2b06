import type { UseMutationResult } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useSavedReports, useToggleSaved } from '../api/savedReports';
import { useToggleZipWatch, useZipWatches } from '../api/zipWatches';
import { formatLongDate } from '../lib/dates';
import { Alert } from './Alert';
import { Icon, type IconName } from './Icon';
import { ListCard, ListRow } from './ListCard';
import { type QueryView, failureHint } from './QueryState';

/**
 * The signed-in user's two watch lists (issue 40), shown on the dashboard and in Settings: the
 * saved reports and the watched ZIP codes, each row with a Remove button. They read and change
 * the same queries as the star on /properties and the report page and the watch button on a ZIP
 * code's page, so every screen shows the same list.
 *
 * Removing is optimistic (the row leaves at once). The mutation lives in the card, not the row,
 * so when the server refuses, the row comes back and the card says why: a row's own state would
 * have gone with the row.
 */

/** What a removal ended in, above the list: a sentence for a screen reader too. */
function RemovalNotice({
  failed,
  done,
  what,
  error,
  testId,
}: {
  failed: boolean;
  done: boolean;
  what: string;
  error: unknown;
  testId: string;
}) {
  if (failed)
    return (
      <Alert kind="error" testId={`${testId}-error`}>
        <p className="load-failed-title">We could not remove {what}.</p>
        <p className="load-failed-hint">{failureHint(error)}</p>
      </Alert>
    );
  if (done)
    return (
      <output className="watch-list-done muted" data-testid={`${testId}-done`}>
        Removed {what}.
      </output>
    );
  return null;
}

/** One row of a watch list: what it is, and where its page is. */
interface WatchedItem {
  id: string;
  title: string;
  meta: string;
  link: { to: string; label: string };
}

/**
 * A watch list as a card: its rows, each with Remove and a link to its page, and above them what
 * the last removal ended in. `toggle` is the list's own add-or-remove mutation; `removing` picks
 * out the item a removal was for (undefined for an addition).
 */
function WatchList<T, V>({
  testId,
  rowTestId: row,
  icon,
  title,
  what,
  query,
  empty,
  toggle,
  removing,
  removal,
  item,
}: {
  testId: string;
  /** A row's; its button is `<rowTestId>-remove`, the removal's outcome `<rowTestId>-removal`. */
  rowTestId: string;
  icon: IconName;
  title: string;
  /** The list in words: "your saved reports". */
  what: string;
  query: QueryView<T[]>;
  empty: { text: string; link: { to: string; label: string } };
  toggle: UseMutationResult<unknown, unknown, V>;
  removing: (variables: V) => T | undefined;
  /** The variables that remove an item. */
  removal: (item: T) => V;
  item: (item: T) => WatchedItem;
}) {
  const removed = toggle.variables === undefined ? undefined : removing(toggle.variables);
  return (
    <ListCard
      testId={testId}
      icon={icon}
      title={title}
      query={query}
      what={what}
      empty={empty}
      notice={
        removed !== undefined && (
          <RemovalNotice
            failed={toggle.isError}
            done={toggle.isSuccess}
            what={`${item(removed).title} from ${what}`}
            error={toggle.error}
            testId={`${row}-removal`}
          />
        )
      }
    >
      {(items) =>
        items.map((entry) => {
          const shown = item(entry);
          return (
            <ListRow
              key={shown.id}
              testId={row}
              id={shown.id}
              title={shown.title}
              meta={shown.meta}
              side={
                <>
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    aria-label={`Remove ${shown.title} from ${what}`}
                    onClick={() => toggle.mutate(removal(entry))}
                    data-testid={`${row}-remove`}
                  >
                    Remove
                  </button>
                  <Link to={shown.link.to} className="btn btn-primary btn-sm">
                    {shown.link.label} <Icon name="arrowRight" size={16} />
                  </Link>
                </>
              }
            />
          );
        })
      }
    </ListCard>
  );
}

/** The reports the user saved, newest saved first. */
export function SavedReportsCard() {
  return (
    <WatchList
      testId="saved-reports"
      rowTestId="saved-report"
      icon="star"
      title="Saved Reports"
      what="your saved reports"
      query={useSavedReports()}
      empty={{
        text: 'Star a report on Browse Reports or on its page to keep it here.',
        link: { to: '/properties', label: 'Browse Reports' },
      }}
      toggle={useToggleSaved()}
      removing={(variables) => (variables.save ? undefined : variables.request)}
      removal={(request) => ({ request, save: false })}
      item={(report) => ({
        id: report.id,
        title: report.address,
        meta: `Report completed ${formatLongDate(report.updated_at)}`,
        link: { to: `/report/${encodeURIComponent(report.id)}`, label: 'View Report' },
      })}
    />
  );
}

/** The ZIP codes the user watches (an email when an import changes one), most recent first. */
export function WatchedZipsCard() {
  return (
    <WatchList
      testId="watched-zips"
      rowTestId="watched-zip"
      icon="mail"
      title="Watched ZIP Codes"
      what="your watched ZIP codes"
      query={useZipWatches()}
      empty={{
        text: 'Watch a ZIP code on its page to get an email when its analysis changes.',
        link: { to: '/zip', label: 'Browse ZIP Codes' },
      }}
      toggle={useToggleZipWatch()}
      removing={(variables) => (variables.watch ? undefined : variables.zipCode)}
      removal={(zipCode) => ({ zipCode, watch: false })}
      item={(zip) => ({
        id: zip,
        title: `ZIP ${zip}`,
        meta: 'An email when its analysis changes',
        link: { to: `/zip/${zip}`, label: 'View ZIP' },
      })}
    />
  );
}
