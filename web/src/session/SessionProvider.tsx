import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, clearStoredToken, getStoredToken, onUnauthorized, storeToken } from '../api/client';
import type { AuthResponse, MeResponse, User } from '../api/types';

export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

export type LoginResult = { ok: true; user: User } | { ok: false; error: string; code?: string; status: number };

export type Session = {
  user: User | null;
  /** True until the stored token (if any) has been checked. */
  loading: boolean;
  /** The last sign-in failure, shown by the sign-in screens until cleared. */
  error: string | null;
  /** Machine code of that failure, e.g. EMAIL_NOT_VERIFIED. */
  errorCode: string | null;
  login(email: string, password: string): Promise<LoginResult>;
  adminLogin(email: string, password: string): Promise<LoginResult>;
  logout(): Promise<void>;
  clearError(): void;
};

const SessionContext = createContext<Session | null>(null);

/**
 * Session state of spec section 4: starts loading with no user, checks a stored token once,
 * and owns sign-in, admin sign-in and sign-out. Must sit inside the router.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [errorCode, setErrorCode] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    const token = getStoredToken();
    if (!token) {
      setLoading(false);
      return;
    }
    api.get<MeResponse>('/api/auth/me', { token }).then((result) => {
      if (cancelled) return;
      if (result.ok && result.data?.user) {
        setUser(result.data.user);
      } else if (getStoredToken() === token) {
        // Only forget the token we checked: a sign-in may have stored a newer one meanwhile.
        clearStoredToken();
      }
      setLoading(false);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  // A call answered 401 with the stored token means the server ended this session (expired,
  // signed out elsewhere, password reset): sign out locally; the route guards send the user on.
  useEffect(
    () =>
      onUnauthorized(() => {
        clearStoredToken();
        setUser(null);
        queryClient.clear();
      }),
    [queryClient],
  );

  const signIn = useCallback(
    async (path: string, email: string, password: string, fallbackError: string, destination: string) => {
      setError(null);
      setErrorCode(null);
      const result = await api.post<AuthResponse>(path, { email, password }, { token: null, fallbackError });
      if (result.ok && result.data?.token && result.data.user) {
        storeToken(result.data.token);
        // Nothing cached for an earlier user may show for this one.
        queryClient.clear();
        setUser(result.data.user);
        setLoading(false);
        navigate(destination);
        return { ok: true, user: result.data.user } satisfies LoginResult;
      }
      const failure = result.ok
        ? { ok: false as const, error: fallbackError, status: result.status }
        : { ok: false as const, error: result.error, code: result.code, status: result.status };
      setError(failure.error);
      setErrorCode(failure.code ?? null);
      return failure satisfies LoginResult;
    },
    [navigate, queryClient],
  );

  const login = useCallback(
    (email: string, password: string) => signIn('/api/auth/login', email, password, 'Login failed', '/dashboard'),
    [signIn],
  );

  const adminLogin = useCallback(
    (email: string, password: string) =>
      signIn('/api/auth/admin-login', email, password, 'Admin login failed', '/admin'),
    [signIn],
  );

  const logout = useCallback(async () => {
    const token = getStoredToken();
    if (token) {
      // Revokes the session server-side; signing out locally must not wait on or fail with it.
      await api.post('/api/auth/logout', undefined, { token, signal: AbortSignal.timeout(5_000) });
    }
    clearStoredToken();
    // Leave the signed-in page first: with the user cleared while still on it, its route guard
    // would send the visitor to /login instead of /.
    await navigate('/');
    setUser(null);
    setError(null);
    setErrorCode(null);
    queryClient.clear();
  }, [navigate, queryClient]);

  const clearError = useCallback(() => {
    setError(null);
    setErrorCode(null);
  }, []);

  const value = useMemo<Session>(
    () => ({ user, loading, error, errorCode, login, adminLogin, logout, clearError }),
    [user, loading, error, errorCode, login, adminLogin, logout, clearError],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
