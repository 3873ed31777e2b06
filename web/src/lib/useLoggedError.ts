import { useEffect } from 'react';

/**
 * For reads whose failure the spec says is "only logged" (dashboard counters and lists): the
 * screen shows zeros or an empty list, and the reason goes to the console for whoever looks.
 */
export function useLoggedError(error: unknown, what: string): void {
  useEffect(() => {
    if (error) console.error(`Failed to load ${what}:`, error);
  }, [error, what]);
}
