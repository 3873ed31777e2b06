import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageSpinner } from '../components/Spinner';
import { useSession } from './SessionProvider';
import { signInPathFor } from './nextPath';

/** The page being guarded, as `next` carries it: path and query. */
function useHere(): string {
  const location = useLocation();
  return `${location.pathname}${location.search}`;
}

/**
 * Signed-in-user routes: a spinner while the session loads, then /login for nobody (/ right
 * after signing out), with `next` so that signing in comes back here: a link from an email
 * (the "report ready" one) lands on its page once the reader has signed in.
 */
export function RequireUser({ children }: { children: ReactNode }) {
  const { user, loading, signedOut } = useSession();
  const here = useHere();
  if (loading) return <PageSpinner label="Checking your session" />;
  if (!user) return <Navigate to={signedOut ? '/' : signInPathFor('/login', here)} replace />;
  return <>{children}</>;
}

/** Admin routes: /admin-login (with `next`) unless the signed-in user has the role 'admin' (/ right after signing out). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user, loading, signedOut } = useSession();
  const here = useHere();
  if (loading) return <PageSpinner label="Checking your session" />;
  if (!user) return <Navigate to={signedOut ? '/' : signInPathFor('/admin-login', here)} replace />;
  if (user.role !== 'admin') return <Navigate to={signInPathFor('/admin-login', here)} replace />;
  return <>{children}</>;
}
