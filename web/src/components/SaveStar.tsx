import type { CoverageRequest } from '@homereport/contracts';
import { isApiError } from '../api/client';
import { useSavedReports, useToggleSaved } from '../api/savedReports';
import { useSession } from '../session/SessionProvider';
import './saveStar.css';

/**
 * The star that saves a covered report to the dashboard's "Saved reports" (on /properties rows
 * and the report page; shared, as features do not import each other). Shown to signed-in users
 * only: there is no list to save to without an account. A toggle button (aria-pressed).
 */
export function SaveStar({ request, className = '' }: { request: CoverageRequest; className?: string }) {
  const { user } = useSession();
  const saved = useSavedReports(Boolean(user));
  const toggle = useToggleSaved();
  if (!user) return null;

  const isSaved = saved.data?.some((r) => r.id === request.id) ?? false;
  const label = isSaved ? 'Saved' : 'Save';
  const problem = toggle.isError
    ? isApiError(toggle.error)
      ? toggle.error.message
      : 'Something went wrong. Please try again.'
    : null;
  return (
    <span className={`save-star ${className}`.trim()}>
      <button
        type="button"
        className={`btn btn-secondary btn-sm save-star-button${isSaved ? ' is-saved' : ''}`}
        aria-pressed={isSaved}
        aria-label={isSaved ? `Remove ${request.address} from saved reports` : `Save ${request.address}`}
        title={isSaved ? 'Remove from your saved reports' : 'Save to your dashboard'}
        disabled={saved.isPending}
        onClick={() => toggle.mutate({ request, save: !isSaved })}
        data-testid="save-star"
      >
        <svg width={16} height={16} viewBox="0 0 24 24" aria-hidden="true" className="save-star-icon">
          <path
            d="m12 3 2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3 6.4 20.2l1.1-6.2L3 9.6l6.2-.9z"
            fill={isSaved ? 'currentColor' : 'none'}
            stroke="currentColor"
            strokeWidth={2}
            strokeLinejoin="round"
          />
        </svg>
        {label}
      </button>
      {problem && (
        <span role="alert" className="save-star-error" data-testid="save-star-error">
          {problem}
        </span>
      )}
    </span>
  );
}
