import type { WindowCounter } from '@homereport/kit';

/**
 * Requests per minute per client address. Returns the seconds to wait when the budget is
 * spent, else null. Redis being away must not take the site down, so an error lets the
 * request through.
 */
export async function overLimit(counter: WindowCounter, client: string, perMinute: number): Promise<number | null> {
  if (perMinute <= 0) return null;
  try {
    const { count, retryAfterSeconds } = await counter.hit(client);
    return count > perMinute ? retryAfterSeconds : null;
  } catch {
    return null;
  }
}
