/**
 * A public GET answer that stays valid while a generation number in Redis stays the same. The
 * service that owns the data bumps the number (INCR) on every change and names it in this header
 * (`<redis key>=<generation>`); the gateway may then keep the answer and serve it again after one
 * Redis GET that finds the same number, without calling the service. A change is visible at once.
 */
export const CACHE_GENERATION_HEADER = 'x-cache-generation';

const KEY = /^[\w:.-]{1,120}$/;

export function formatCacheGeneration(key: string, generation: string): string {
  return `${key}=${generation}`;
}

export function parseCacheGeneration(value: unknown): { key: string; generation: string } | null {
  if (typeof value !== 'string') return null;
  const at = value.lastIndexOf('=');
  const key = value.slice(0, at);
  const generation = value.slice(at + 1);
  return at > 0 && KEY.test(key) && /^\d{1,20}$/.test(generation) ? { key, generation } : null;
}
