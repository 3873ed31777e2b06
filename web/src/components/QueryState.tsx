import type { ReactNode } from 'react';
import { isApiError } from '../api/client';
import { Alert } from './Alert';
import './shared.css';

/**
 * What QueryState needs of a TanStack query result; `useQuery` and `useInfiniteQuery` results
 * (after `select`) both fit.
 */
export interface QueryView<T> {
  data: T | undefined;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * The server's own final answer (a 4xx other than 429): no outage, and asking again changes
 * nothing. Screens that have a message of their own for it (not found, no credits) show that.
 */
export function isRefusal(error: unknown): boolean {
  return isApiError(error) && !error.networkError && error.status >= 400 && error.status < 500 && error.status !== 429;
}

/** The second line of a failed load: why, as far as the answer tells, and what to do. */
export function failureHint(error: unknown): string {
  if (isApiError(error)) {
    if (error.networkError) return 'We could not reach HomeReport. Check your connection, then retry.';
    if (error.status === 429) return 'Too many requests just now. Wait a moment, then retry.';
    if (error.status >= 500) return 'The service is not answering right now. Retry in a moment.';
    // Another 4xx is the server's own answer, worth reading as it is.
    return error.message;
  }
  return 'Something went wrong on this page. Retry in a moment.';
}

/**
 * A read that failed, said in words, with a Retry that asks again. Shown in place of the data,
 * never beside zeros or an empty list: an outage is not "nothing there".
 */
export function LoadFailed({
  what,
  message,
  error,
  onRetry,
  retrying = false,
  testId = 'load-failed',
}: {
  /** Completes "We could not load …", e.g. "your requests". */
  what: string;
  /** A sentence of the screen's own instead of "We could not load …" (one the spec words). */
  message?: string;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
  testId?: string;
}) {
  return (
    <Alert kind="error" testId={testId}>
      <p className="load-failed-title">{message ?? `We could not load ${what}.`}</p>
      <p className="load-failed-hint">{failureHint(error)}</p>
      <button
        type="button"
        className="btn btn-secondary btn-sm alert-action"
        onClick={onRetry}
        disabled={retrying}
        data-testid={`${testId}-retry`}
      >
        {retrying ? 'Retrying…' : 'Retry'}
      </button>
    </Alert>
  );
}

/** LoadFailed for a query result: its error, with its refetch as Retry. */
export function QueryFailed({
  query,
  ...words
}: {
  query: QueryView<unknown>;
  what: string;
  message?: string;
  testId?: string;
}) {
  return <LoadFailed {...words} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
}

/**
 * The three states of a read in one place: loading, failed (LoadFailed with Retry), and loaded,
 * where an empty answer may have its own text. Data already on screen stays there if a later
 * background refetch fails; it is still the last thing the server said.
 */
export function QueryState<T>({
  query,
  what,
  message,
  loading,
  isEmpty,
  empty,
  testId,
  children,
}: {
  query: QueryView<T>;
  /** Completes "We could not load …" and "Loading …". */
  what: string;
  /** Replaces "We could not load …" (see LoadFailed). */
  message?: string;
  /** Shown while the first answer is awaited; a short line by default. */
  loading?: ReactNode;
  /** With `empty`: when the answer holds nothing to show. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  /** Test id of the failure message; its Retry button is `<testId>-retry`. */
  testId?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) {
    if (isEmpty && empty !== undefined && isEmpty(query.data)) return <>{empty}</>;
    return <>{children(query.data)}</>;
  }
  if (query.error) return <QueryFailed query={query} what={what} message={message} testId={testId} />;
  return <>{loading ?? <output className="muted query-loading">Loading {what}…</output>}</>;
}
