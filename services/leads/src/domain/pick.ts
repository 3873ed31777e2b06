/**
 * The named fields of an object, in the order named: how the lead's field lists declared once in
 * packages/contracts (LEAD_FIELDS and its parts) become rows, records, views and events.
 */
export function pick<T, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = from[key];
  return out;
}
