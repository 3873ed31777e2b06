/**
 * The one way the web app talks to the gateway. It adds the stored token, turns `{ error }`
 * bodies into messages a person can read, and tells the session when the server no longer
 * accepts the token (a 401), so the app signs out.
 *
 * Two forms of the same call: `api.*` resolves (never throws) to a result for screens that
 * branch on it; `apiCall` throws an `ApiError` for TanStack Query's query and mutation
 * functions, whose hooks then carry loading and error states. Response types come from
 * packages/contracts (see ./types.ts and the features' api/ folders).
 */

import { fieldMessages } from './fieldMessages';

export const TOKEN_STORAGE_KEY = 'token';
/**
 * The code of a 401 about a password the signed-in user typed (changing the password, deleting
 * the account): the session is fine, only the password was wrong.
 */
export const WRONG_PASSWORD_CODE = 'WRONG_PASSWORD';
export const NETWORK_ERROR_MESSAGE = 'Network error. Please try again.';

export type ApiSuccess<T> = { ok: true; status: number; data: T };
export type ApiFailure = {
  ok: false;
  /** HTTP status, or 0 when the request never got an answer. */
  status: number;
  error: string;
  /** Machine code from the body (for example 'EMAIL_NOT_VERIFIED'), when the server sent one. */
  code?: string;
  /** The request fields the server named as wrong (`details[].field`), so a form can mark them. */
  fields?: string[];
  /** A sentence about each of those fields (./fieldMessages.ts); `error` is made of them. */
  fieldMessages?: Record<string, string>;
  networkError: boolean;
};
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

export type ApiRequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; FormData is sent as multipart with the browser's boundary. */
  body?: unknown;
  /** Shown when a non-OK answer carries no `error` text of its own. */
  fallbackError?: string;
  /** Shown when fetch itself fails; defaults to the generic network message. */
  networkError?: string;
  /** Overrides the stored token; null sends no Authorization header. */
  token?: string | null;
  signal?: AbortSignal;
};

const DEFAULT_FALLBACK_ERROR = 'Something went wrong. Please try again.';

function storage(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return typeof globalThis[kind] === 'undefined' ? undefined : globalThis[kind];
  } catch {
    // Some browsers throw on access when storage is disabled.
    return undefined;
  }
}

/**
 * Where a session token is kept (docs/decisions/007-admin-session-token.md): a user's in
 * localStorage, so it outlives the tab; an admin's in sessionStorage, so it goes with the tab
 * and is never there for a later visitor of the browser. The admin's is read first.
 */
export type TokenKind = 'user' | 'admin';
const storeOf = (kind: TokenKind) => storage(kind === 'admin' ? 'sessionStorage' : 'localStorage');

export function getStoredToken(): string | null {
  for (const kind of ['admin', 'user'] as const) {
    try {
      const token = storeOf(kind)?.getItem(TOKEN_STORAGE_KEY);
      if (token) return token;
    } catch {
      // Unreadable storage holds no token.
    }
  }
  return null;
}

/** Keeps the token of a new sign-in, and forgets any other one (only one session per tab). */
export function storeToken(token: string, kind: TokenKind = 'user'): void {
  clearStoredToken();
  try {
    storeOf(kind)?.setItem(TOKEN_STORAGE_KEY, token);
  } catch {
    // A session that cannot persist still works until the page reloads.
  }
}

export function clearStoredToken(): void {
  for (const kind of ['admin', 'user'] as const) {
    try {
      storeOf(kind)?.removeItem(TOKEN_STORAGE_KEY);
    } catch {
      // Nothing stored, nothing to remove.
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/**
 * Called when a call that sent the stored token is answered 401: the token is no longer good.
 * The session subscribes and signs out locally. Returns the unsubscribe function.
 */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<ApiResult<T>> {
  const { method = 'GET', body, fallbackError = DEFAULT_FALLBACK_ERROR, signal } = options;
  const token = options.token === undefined ? getStoredToken() : options.token;

  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    // Only a request that has a body says it is JSON: an empty JSON body is refused upstream.
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: payload, signal });
  } catch {
    return { ok: false, status: 0, error: options.networkError ?? NETWORK_ERROR_MESSAGE, networkError: true };
  }

  const data = await readBody(response);
  if (response.ok) return { ok: true, status: response.status, data: data as T };
  return failureOf(response.status, data, token, fallbackError);
}

/**
 * A non-OK answer as a failure to show: the body's `error` (or `fallbackError`), its code and the
 * fields it names. A 401 for the stored token signs the session out. Shared by `apiRequest` and
 * the upload with progress (./upload.ts), which reads its answer from an XMLHttpRequest.
 */
export function failureOf(status: number, data: unknown, token: string | null, fallbackError: string): ApiFailure {
  // The stored token no longer works (expired, revoked by a reset or a sign-out elsewhere): the
  // session signs out with a short message. A 401 for a token given explicitly (a sign-in form's
  // own attempt) or an older token says nothing about the current session.
  // A wrong password typed on a signed-in page is a 401 too, marked as such: it ends nothing.
  const wrongPassword = isRecord(data) && data.code === WRONG_PASSWORD_CODE;
  if (status === 401 && token && token === getStoredToken() && !wrongPassword) {
    for (const listener of unauthorizedListeners) listener();
  }

  const serverError = isRecord(data) && typeof data.error === 'string' && data.error.trim() !== '' ? data.error : null;
  const failure: ApiFailure = {
    ok: false,
    status,
    error: serverError ?? fallbackError,
    networkError: false,
  };
  if (isRecord(data) && typeof data.code === 'string') failure.code = data.code;
  if (isRecord(data) && Array.isArray(data.details)) {
    const details = data.details
      .filter(isRecord)
      .map((d) => ({ field: typeof d.field === 'string' ? d.field : '', message: String(d.message ?? '') }));
    const named = details.filter((d) => d.field !== '');
    if (named.length > 0) {
      failure.fields = named.map((d) => d.field);
      failure.fieldMessages = fieldMessages(named);
      // The answer's own `error` repeats a validator's words ("address: must NOT have ..."): the
      // sentences about the fields replace it, the same on every form.
      failure.error = Object.values(failure.fieldMessages).join(' ');
    }
  }
  return failure;
}

type Options = Omit<ApiRequestOptions, 'method' | 'body'>;

/** A failed call, thrown by `apiCall`; `message` is the text to show. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly fields: string[];
  readonly networkError: boolean;

  constructor(failure: ApiFailure) {
    super(failure.error);
    this.name = 'ApiError';
    this.status = failure.status;
    this.code = failure.code;
    this.fields = failure.fields ?? [];
    this.networkError = failure.networkError;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The call for query and mutation functions: the parsed body, or a thrown `ApiError`. */
export async function apiCall<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const result = await apiRequest<T>(path, options);
  if (!result.ok) throw new ApiError(result);
  return result.data;
}

export const api = {
  get: <T>(path: string, options?: Options) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Options) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Options) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
};
