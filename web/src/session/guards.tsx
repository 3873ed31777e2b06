import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Alert } from '../components/Alert';
import { SiteLayout } from '../components/SiteLayout';
import { PageSpinner } from '../components/Spinner';
import { useSession } from './SessionProvider';
import { signInPathFor } from './nextPath';

/** The page being guarded, as `next` carries it: path and query. */
function useHere(): string {
  const location = useLocation();
  return `${location.pathname}${location.search}`;
}

/**
 * The stored token could not be checked (no answer, a server error): the visitor may well be
 * signed in, so they are offered another try rather than sent to a sign-in page.
 */
function SessionUnchecked({ recheck }: { recheck: () => void }) {
  return (
    <SiteLayout>
      <section className="section" data-testid="session-unchecked">
        <div className="container narrow">
          <h1>Checking your sign-in</h1>
          <Alert kind="error">
            <p>We could not reach our server to check your sign-in. Please try again in a moment.</p>
            <button type="button" className="btn btn-primary" onClick={recheck} data-testid="session-recheck">
              Try again
            </button>
          </Alert>
        </div>
      </section>
    </SiteLayout>
  );
}

/**
 * Signed-in-user routes: a spinner while the session loads, then /login for nobody (/ right
 * after signing out), with `next` so that signing in comes back here: a link from an email
 * (the "report ready" one) lands on its page once the reader has signed in.
 */
export function RequireUser({ children }: { children: ReactNode }) {
  const { user, loading, unchecked, recheck, signedOut } = useSession();
  const here = useHere();
  if (loading) return <PageSpinner label="Checking your session" />;
  if (!user && unchecked) return <SessionUnchecked recheck={recheck} />;
  if (!user) return <Navigate to={signedOut ? '/' : signInPathFor('/login', here)} replace />;
  return <>{children}</>;
}

/** Admin routes: /admin-login (with `next`) unless the signed-in user has the role 'admin' (/ right after signing out). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user, loading, unchecked, recheck, signedOut } = useSession();
  const here = useHere();
  if (loading) return <PageSpinner label="Checking your session" />;
  if (!user && unchecked) return <SessionUnchecked recheck={recheck} />;
  if (!user) return <Navigate to={signedOut ? '/' : signInPathFor('/admin-login', here)} replace />;
  if (user.role !== 'admin') return <Navigate to={signInPathFor('/admin-login', here)} replace />;
  return <>{children}</>;
}
