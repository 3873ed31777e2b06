import { Link } from 'react-router-dom';
import { useSavedReports, useToggleSaved } from '../api/savedReports';
import { useToggleZipWatch, useZipWatches } from '../api/zipWatches';
import { formatLongDate } from '../lib/dates';
import { Alert } from './Alert';
import { Icon } from './Icon';
import { ListCard, ListRow } from './ListCard';
import { failureHint } from './QueryState';

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

/** The reports the user saved, newest saved first. */
export function SavedReportsCard() {
  const remove = useToggleSaved();
  const removed = remove.variables && !remove.variables.save ? remove.variables.request : undefined;
  return (
    <ListCard
      testId="saved-reports"
      icon="star"
      title="Saved Reports"
      query={useSavedReports()}
      what="your saved reports"
      empty={{
        text: 'Star a report on Browse Reports or on its page to keep it here.',
        link: { to: '/properties', label: 'Browse Reports' },
      }}
      notice={
        removed && (
          <RemovalNotice
            failed={remove.isError}
            done={remove.isSuccess}
            what={`${removed.address} from your saved reports`}
            error={remove.error}
            testId="saved-report-removal"
          />
        )
      }
    >
      {(reports) =>
        reports.map((report) => (
          <ListRow
            key={report.id}
            testId="saved-report"
            id={report.id}
            title={report.address}
            meta={`Report completed ${formatLongDate(report.updated_at)}`}
            side={
              <>
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  aria-label={`Remove ${report.address} from saved reports`}
                  onClick={() => remove.mutate({ request: report, save: false })}
                  data-testid="saved-report-remove"
                >
                  Remove
                </button>
                <Link to={`/report/${encodeURIComponent(report.id)}`} className="btn btn-primary btn-sm">
                  View Report <Icon name="arrowRight" size={16} />
                </Link>
              </>
            }
          />
        ))
      }
    </ListCard>
  );
}

/** The ZIP codes the user watches (an email when an import changes one), most recent first. */
export function WatchedZipsCard() {
  const remove = useToggleZipWatch();
  const removed = remove.variables && !remove.variables.watch ? remove.variables.zipCode : undefined;
  return (
    <ListCard
      testId="watched-zips"
      icon="mail"
      title="Watched ZIP Codes"
      query={useZipWatches()}
      what="your watched ZIP codes"
      empty={{
        text: 'Watch a ZIP code on its page to get an email when its analysis changes.',
        link: { to: '/zip', label: 'Browse ZIP Codes' },
      }}
      notice={
        removed && (
          <RemovalNotice
            failed={remove.isError}
            done={remove.isSuccess}
            what={`ZIP ${removed} from your watched ZIP codes`}
            error={remove.error}
            testId="watched-zip-removal"
          />
        )
      }
    >
      {(zips) =>
        zips.map((zip) => (
          <ListRow
            key={zip}
            testId="watched-zip"
            id={zip}
            title={`ZIP ${zip}`}
            meta="An email when its analysis changes"
            side={
              <>
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  aria-label={`Remove ZIP ${zip} from watched ZIP codes`}
                  onClick={() => remove.mutate({ zipCode: zip, watch: false })}
                  data-testid="watched-zip-remove"
                >
                  Remove
                </button>
                <Link to={`/zip/${zip}`} className="btn btn-primary btn-sm">
                  View ZIP <Icon name="arrowRight" size={16} />
                </Link>
              </>
            }
          />
        ))
      }
    </ListCard>
  );
}
