import type { HealthReply } from '@homereport/contracts';
import { useQuery } from '@tanstack/react-query';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../../api/client';

/** How often the System Status block asks again while the dashboard is open. */
export const HEALTH_REFRESH_MS = 30_000;

function isHealthReply(body: unknown): body is HealthReply {
  if (typeof body !== 'object' || body === null) return false;
  const services = (body as { services?: unknown }).services;
  return typeof services === 'object' && services !== null;
}

/**
 * GET /api/health. A 503 is an answer here, not a failure: it has the same shape and names what
 * is down, which is what the block is for. Only no answer, or one without that shape, fails.
 * Plain fetch rather than the API client, which keeps no body of a non-2xx answer.
 */
export async function fetchSystemHealth(signal?: AbortSignal): Promise<HealthReply> {
  let response: Response;
  try {
    response = await fetch('/api/health', { headers: { Accept: 'application/json' }, signal });
  } catch {
    throw new ApiError({ ok: false, status: 0, error: NETWORK_ERROR_MESSAGE, networkError: true });
  }
  const body: unknown = await response.json().catch(() => null);
  if ((response.ok || response.status === 503) && isHealthReply(body)) return body;
  throw new ApiError({
    ok: false,
    status: response.status,
    error: 'The health check gave no status.',
    networkError: false,
  });
}

export function useSystemHealth() {
  return useQuery({
    queryKey: ['health'] as const,
    queryFn: ({ signal }) => fetchSystemHealth(signal),
    staleTime: 0,
    refetchInterval: HEALTH_REFRESH_MS,
  });
}
