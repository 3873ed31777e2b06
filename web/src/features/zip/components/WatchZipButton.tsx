import { Link, useLocation } from 'react-router-dom';
import { isApiError } from '../../../api/client';
import { useToggleZipWatch, useZipWatches } from '../../../api/zipWatches';
import { Icon } from '../../../components/Icon';
import { useSession } from '../../../session/SessionProvider';
import { signInPathFor } from '../../../session/nextPath';
import '../../../components/saveStar.css';

/**
 * "Watch this ZIP" on a ZIP code's page: a watcher gets an email when an import changes the
 * analysis's price, rent, appreciation or risk. A toggle (aria-pressed); signed out, a link to
 * sign in that comes back here.
 */
export function WatchZipButton({ zipCode }: { zipCode: string }) {
  const { user } = useSession();
  const location = useLocation();
  const watches = useZipWatches(Boolean(user));
  const toggle = useToggleZipWatch();

  if (!user) {
    return (
      <Link
        to={signInPathFor('/login', location.pathname)}
        className="btn btn-secondary btn-sm"
        data-testid="zip-watch-sign-in"
      >
        <Icon name="mail" size={16} /> Sign in to watch this ZIP
      </Link>
    );
  }
  const watching = watches.data?.includes(zipCode) ?? false;
  return (
    <span className="save-star">
      <button
        type="button"
        className={`btn btn-secondary btn-sm watch-toggle${watching ? ' is-on' : ''}`}
        aria-pressed={watching}
        title={watching ? 'Stop the emails about this ZIP code' : 'Get an email when this analysis changes'}
        disabled={watches.isPending}
        onClick={() => toggle.mutate({ zipCode, watch: !watching })}
        data-testid="zip-watch"
      >
        <Icon name={watching ? 'checkCircle' : 'mail'} size={16} /> {watching ? 'Watching this ZIP' : 'Watch this ZIP'}
      </button>
      {toggle.isError && (
        <span role="alert" className="save-star-error" data-testid="zip-watch-error">
          {isApiError(toggle.error) ? toggle.error.message : 'Something went wrong. Please try again.'}
        </span>
      )}
    </span>
  );
}
