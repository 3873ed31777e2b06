import type { AddressIndex } from '../domain/ports.js';
import { type Collections, isDuplicateKey } from './collections.js';

/** The latest request per normalised address (`_id` is the key), for the 30-day duplicate notice. */
export class AddressIndexRepository implements AddressIndex {
  constructor(private readonly c: Collections) {}

  async latest(addressKey: string): Promise<{ requestId: string; at: Date } | null> {
    const doc = await this.c.addresses.findOne({ _id: addressKey });
    return doc ? { requestId: doc.lastRequestId, at: doc.lastAt } : null;
  }

  async remember(addressKey: string, requestId: string, at: Date): Promise<void> {
    // Only moves forward in time, so a repeated (late) effect never points back at an older request.
    const moved = await this.c.addresses.findOneAndUpdate(
      { _id: addressKey, lastAt: { $lt: at } },
      { $set: { lastRequestId: requestId, lastAt: at } },
      { projection: { _id: 1 } },
    );
    if (moved) return;
    try {
      await this.c.addresses.insertOne({ _id: addressKey, lastRequestId: requestId, lastAt: at });
    } catch (err) {
      // It exists with a newer (or this) request already.
      if (!isDuplicateKey(err)) throw err;
    }
  }
}
