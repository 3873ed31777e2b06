import { Link } from 'react-router-dom';
import { useSavedReports } from '../../../api/savedReports';
import { Icon } from '../../../components/Icon';
import { ListCard, ListRow } from '../../../components/ListCard';
import { SaveStar } from '../../../components/SaveStar';
import { formatLongDate } from '../../../lib/dates';

/** Beyond the spec: the reports the user starred, newest saved first; the star takes one off. */
export function SavedReports() {
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
                <SaveStar request={report} />
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
