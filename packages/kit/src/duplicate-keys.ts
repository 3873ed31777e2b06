/** MongoDB's code for a write a unique index refused (E11000). */
const DUPLICATE_KEY = 11000;

/** A write a unique index refused: a document with that key exists already (another's, or ours retried). */
export const isDuplicateKey = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === DUPLICATE_KEY;

/**
 * The positions of the documents an unordered bulk insert found stored already, when that is its
 * only failure (everything else was written); null for any other error. Mongoose copies the
 * driver's WriteError objects into plain ones, which keep `err` but not the `code` and `index`
 * getters; the driver gives one WriteError alone rather than a list of one.
 */
export function duplicatesOfBulkWrite(err: unknown): number[] | null {
  type WriteError = { code?: number; index?: number; err?: { code?: number; index?: number } };
  const { writeErrors } = (err ?? {}) as { writeErrors?: WriteError | WriteError[] };
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  if (list.length === 0 || !list.every((w) => isDuplicateKey({ code: w.code ?? w.err?.code }))) return null;
  return list.map((w) => w.index ?? w.err?.index ?? -1);
}

/**
 * An upsert that may race another creating the same document: the loser's insert fails on the
 * unique _id, and the same write again finds the document and updates it.
 */
export const againOnDuplicate = <T>(write: () => Promise<T>): Promise<T> =>
  write().catch((err) => (isDuplicateKey(err) ? write() : Promise.reject(err)));

/** A `.catch` for an insert whose document may exist already, which is just as good. */
export function ignoreDuplicate(err: unknown): void {
  if (!isDuplicateKey(err)) throw err;
}
