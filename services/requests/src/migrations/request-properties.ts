import type { Collections } from '../data/collections.js';

/** Documents a step reads and handles at a time: one query for the properties of a batch. */
export const BATCH = 500;

/** `source`'s documents, `size` at a time. */
export async function* inBatches<T>(source: AsyncIterable<T>, size = BATCH): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const doc of source) {
    batch.push(doc);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The property of each request id, for the steps that turn what was kept by request id into what
 * is kept by property (issue 36): read with one query per batch of ids (`load`), and remembered.
 */
export class RequestProperties {
  private readonly known = new Map<string, string | null>();

  constructor(private readonly c: Collections) {}

  /** Reads the properties of those of `ids` not known yet. */
  async load(ids: Iterable<string>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.known.has(id));
    if (missing.length === 0) return;
    for (const id of missing) this.known.set(id, null);
    const found = this.c.requests.find({ _id: { $in: missing } }, { projection: { property_id: 1 } });
    for await (const doc of found) this.known.set(doc._id, doc.property_id ?? null);
  }

  /** The property of a loaded id; null for a request without one, or none at all. */
  of(requestId: string): string | null {
    return this.known.get(requestId) ?? null;
  }
}
