import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { PageSpinner } from '../components/Spinner';
import { useSession } from './SessionProvider';

/** Signed-in-user routes: a spinner while the session loads, then /login for nobody (/ right after signing out). */
export function RequireUser({ children }: { children: ReactNode }) {
  const { user, loading, signedOut } = useSession();
  if (loading) return <PageSpinner label="Checking your session" />;
  if (!user) return <Navigate to={signedOut ? '/' : '/login'} replace />;
  return <>{children}</>;
}

/** Admin routes: /admin-login unless the signed-in user has the role 'admin' (/ right after signing out). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user, loading, signedOut } = useSession();
  if (loading) return <PageSpinner label="Checking your session" />;
  if (!user) return <Navigate to={signedOut ? '/' : '/admin-login'} replace />;
  if (user.role !== 'admin') return <Navigate to="/admin-login" replace />;
  return <>{children}</>;
}
