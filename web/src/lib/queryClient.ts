import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/client';

/**
 * Attempts after the first for a failure worth retrying. One quick retry hides a blip; more
 * would keep a screen on its spinner during an outage, when the person should be told instead.
 */
export const MAX_RETRIES = 1;

/** Wait before that retry: short, so a failed load is on screen well within 1.5 s. */
export const RETRY_DELAY_MS = 300;

/**
 * Retry only what a second try can fix: no answer at all, a 5xx, or 429. A 4xx is the
 * server's final word (401 signs out, 402 no credits, 404 not found) and is shown at once.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!isApiError(error)) return false;
  if (error.networkError) return true;
  return error.status >= 500 || error.status === 429;
}

/** The app's one query client: cached server state, retries and refetch rules in one place. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: RETRY_DELAY_MS,
        // Ask even when the browser believes it is offline: the default would hold the query
        // (and its retry) paused, leaving a spinner where "we could not load" belongs.
        networkMode: 'always',
        // Fresh for half a minute: moving between pages does not refetch what was just read.
        staleTime: 30_000,
      },
      // A write is never sent twice on its own: the person sees the failure and decides.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
