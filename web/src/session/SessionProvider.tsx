import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { TOKEN_STORAGE_KEY, api, clearStoredToken, getStoredToken, onUnauthorized, storeToken } from '../api/client';
import type { AuthResponse, MeResponse, User } from '../api/types';
import { SessionNotice } from './SessionNotice';
import { afterSignIn } from './nextPath';

export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

/** The second step of an admin's sign-in: a code from the app, or one recovery code. */
export type SecondFactor = { code: string } | { recovery_code: string };

/** Where an admin without the TOTP that ADMIN_MFA_REQUIRED asks for sets it up. */
export const ADMIN_SECURITY_PATH = '/admin/security';

export type LoginResult =
  | { ok: true; user: User }
  | { ok: false; error: string; code?: string; status: number; fields?: string[] };

/** Why the session ended without the user pressing Sign Out here, shown once as a short message. */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';
export const SIGNED_OUT_ELSEWHERE_MESSAGE = 'You were signed out in another tab.';

export type Session = {
  user: User | null;
  /** True until the stored token (if any) has been checked. */
  loading: boolean;
  /**
   * True when the stored token could not be checked (no answer, a server error): the session is
   * unknown, not ended, so guarded pages offer `recheck` instead of sending to a sign-in page.
   */
  unchecked: boolean;
  /** Asks the server about the stored token again, after a check that got no answer. */
  recheck(): void;
  /** The last sign-in failure, shown by the sign-in screens until cleared. */
  error: string | null;
  /** Machine code of that failure, e.g. EMAIL_NOT_VERIFIED. */
  errorCode: string | null;
  /** The fields that failure is about (both for wrong credentials), so the form can mark them. */
  errorFields: readonly string[];
  /** A short message about a session that ended by itself (expired, revoked, another tab). */
  notice: string | null;
  /** True right after the user signed out here: guarded pages then send them home, not to a sign-in page. */
  signedOut: boolean;
  /** Signs in and goes to `next` when it is a path on this site, else to the user's home. */
  login(email: string, password: string, next?: string | null): Promise<LoginResult>;
  /**
   * Admin sign-in; `factor` is the second step for an admin with TOTP (a failure with code
   * MFA_REQUIRED asks for it). An admin who must enrol first lands on /admin/security.
   */
  adminLogin(email: string, password: string, next?: string | null, factor?: SecondFactor): Promise<LoginResult>;
  logout(): Promise<void>;
  /**
   * Forgets a session the server already ended on the user's request (a deleted account) and
   * goes to the landing page, which shows `message` once.
   */
  leave(message: string): Promise<void>;
  clearError(): void;
  dismissNotice(): void;
};

const SessionContext = createContext<Session | null>(null);

/** The last sign-in failure, as the session tells the sign-in screens. */
type SignInFailure = Pick<Session, 'error' | 'errorCode' | 'errorFields'>;
const NO_FAILURE: SignInFailure = { error: null, errorCode: null, errorFields: [] };

/** Where a signed-in user belongs (spec section 4): admins on /admin, everyone else on /dashboard. */
export const homeOf = (user: User) => (user.role === 'admin' ? '/admin' : '/dashboard');

/**
 * Session state of spec section 4: starts loading with no user, checks a stored token once,
 * and owns sign-in, admin sign-in and sign-out. Must sit inside the router.
 *
 * A session can also end on its own: any call answered 401 with the stored token (expired,
 * revoked by a password reset) signs out here with a short message, and the other tabs follow
 * through the `storage` event, as they follow a sign-out or a sign-in in any tab.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(true);
  const [unchecked, setUnchecked] = useState(false);
  const [failure, setFailure] = useState<SignInFailure>(NO_FAILURE);
  const [notice, setNotice] = useState<string | null>(null);
  const [signedOut, setSignedOut] = useState(false);
  const userRef = useRef<User | null>(null);
  userRef.current = user;

  /**
   * Asks who the token belongs to. Only a 401 says the token is no good and forgets it (if it is
   * still the stored one): a check that got no answer (the page being left mid-call, the network,
   * a 5xx) says nothing about the session, so the token stays and the session is left unchecked.
   */
  const adopt = useCallback(async (token: string) => {
    const result = await api.get<MeResponse>('/api/auth/me', { token });
    if (getStoredToken() !== token) return;
    if (result.ok && result.data?.user) {
      setUser(result.data.user);
      setUnchecked(false);
    } else if (result.status === 401) {
      clearStoredToken();
      setUnchecked(false);
    } else {
      setUnchecked(true);
    }
  }, []);

  const check = useCallback(
    (isCancelled: () => boolean = () => false) => {
      const token = getStoredToken();
      if (!token) {
        setLoading(false);
        return;
      }
      setLoading(true);
      void adopt(token).finally(() => {
        if (!isCancelled()) setLoading(false);
      });
    },
    [adopt],
  );

  useEffect(() => {
    let cancelled = false;
    check(() => cancelled);
    return () => {
      cancelled = true;
    };
  }, [check]);

  /** Forgets the session here without asking the server (it already ended). */
  const endLocally = useCallback(
    (message: string | null) => {
      clearStoredToken();
      setUnchecked(false);
      const wasSignedIn = userRef.current !== null;
      setUser(null);
      queryClient.clear();
      if (wasSignedIn && message) setNotice(message);
    },
    [queryClient],
  );

  // A call answered 401 with the stored token: the server ended this session.
  useEffect(() => onUnauthorized(() => endLocally(SESSION_ENDED_MESSAGE)), [endLocally]);

  // Other tabs: a sign-out (token removed) or a sign-in (a new token) there applies here too.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== TOKEN_STORAGE_KEY && event.key !== null) return;
      const token = getStoredToken();
      if (!token) {
        if (userRef.current) {
          setUser(null);
          queryClient.clear();
          setNotice(SIGNED_OUT_ELSEWHERE_MESSAGE);
        }
        return;
      }
      queryClient.clear();
      setNotice(null);
      void adopt(token);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [adopt, queryClient]);

  /**
   * What the screens may do with the session: one object that changes only with the router and
   * the query client.
   */
  const actions = useMemo(() => {
    const signIn = async (
      path: string,
      email: string,
      password: string,
      fallbackError: string,
      next?: string | null,
      extra: SecondFactor | Record<string, never> = {},
    ): Promise<LoginResult> => {
      setFailure(NO_FAILURE);
      const result = await api.post<AuthResponse>(path, { email, password, ...extra }, { token: null, fallbackError });
      if (result.ok && result.data?.token && result.data.user) {
        // An admin's token stays in this tab only (decision 007).
        storeToken(result.data.token, result.data.user.role === 'admin' ? 'admin' : 'user');
        // Nothing cached for an earlier user may show for this one.
        queryClient.clear();
        setUser(result.data.user);
        setLoading(false);
        setUnchecked(false);
        setNotice(null);
        setSignedOut(false);
        navigate(
          result.data.mfa_enrolment_required ? ADMIN_SECURITY_PATH : afterSignIn(next, homeOf(result.data.user)),
        );
        return { ok: true, user: result.data.user };
      }
      const refused = result.ok
        ? { ok: false as const, error: fallbackError, status: result.status }
        : {
            ok: false as const,
            error: result.error,
            code: result.code,
            status: result.status,
            // Wrong credentials are about both fields: the answer does not say which one.
            // A refused second step is about the code alone.
            fields:
              result.fields ??
              (result.code?.startsWith('MFA_') ? ['code'] : result.status === 401 ? ['email', 'password'] : undefined),
          };
      setFailure({ error: refused.error, errorCode: refused.code ?? null, errorFields: refused.fields ?? [] });
      return refused;
    };

    /** Forgets the session in this tab and goes home: after a sign-out, or an account the server deleted. */
    const signOutHere = async () => {
      clearStoredToken();
      setSignedOut(true);
      // Leave the signed-in page first: with the user cleared while still on it, its route guard
      // would send the visitor to /login instead of /.
      await navigate('/');
      setUser(null);
      setFailure(NO_FAILURE);
      queryClient.clear();
    };

    return {
      recheck: () => check(),
      login: (email: string, password: string, next?: string | null) =>
        signIn('/api/auth/login', email, password, 'Login failed', next),
      adminLogin: (email: string, password: string, next?: string | null, factor?: SecondFactor) =>
        signIn('/api/auth/admin-login', email, password, 'Admin login failed', next, factor),
      logout: async () => {
        const token = getStoredToken();
        if (token) {
          // Revokes the session server-side; signing out locally must not wait on or fail with it.
          await api.post('/api/auth/logout', undefined, { token, signal: AbortSignal.timeout(5_000) });
        }
        await signOutHere();
        setNotice(null);
      },
      leave: async (message: string) => {
        await signOutHere();
        setNotice(message);
      },
      clearError: () => setFailure(NO_FAILURE),
      dismissNotice: () => setNotice(null),
    };
  }, [check, navigate, queryClient]);

  const value = useMemo<Session>(
    () => ({ user, loading, unchecked, ...failure, notice, signedOut, ...actions }),
    [user, loading, unchecked, failure, notice, signedOut, actions],
  );

  return (
    <SessionContext.Provider value={value}>
      {notice && <SessionNotice message={notice} onDismiss={actions.dismissNotice} />}
      {children}
    </SessionContext.Provider>
  );
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
