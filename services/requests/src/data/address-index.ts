import type { AddressIndex } from '../domain/ports.js';
import type { Collections } from './collections.js';

/**
 * The latest request per normalised address (`_id` is the key), for the 30-day duplicate notice.
 * `last` is `<ISO time>|<request id>`: `$max` keeps the latest whatever the order of writes, so a
 * repeated or late effect never points back at an older request, without a conditional filter.
 */
export class AddressIndexRepository implements AddressIndex {
  constructor(private readonly c: Collections) {}

  async latest(addressKey: string): Promise<{ requestId: string; at: Date } | null> {
    const doc = await this.c.addresses.findOne({ _id: addressKey });
    const [at, requestId] = (doc?.last ?? '').split('|');
    return at && requestId ? { requestId, at: new Date(at) } : null;
  }

  async all(addressKey: string): Promise<{ requestId: string; at: Date }[]> {
    const doc = await this.c.addresses.findOne({ _id: addressKey });
    const entries = new Set([...(doc?.recent ?? []), ...(doc?.last ? [doc.last] : [])]);
    return [...entries].flatMap((entry) => {
      const [at, requestId] = entry.split('|');
      return at && requestId ? [{ requestId, at: new Date(at) }] : [];
    });
  }

  async remember(addressKey: string, requestId: string, at: Date): Promise<void> {
    const entry = `${at.toISOString()}|${requestId}`;
    // $addToSet: repeating the effect adds nothing. One document per property stays small: a
    // property is requested a handful of times, not thousands.
    const update = { $max: { last: entry }, $addToSet: { recent: entry } };
    await this.c.addresses
      .updateOne({ _id: addressKey }, update, { upsert: true })
      .catch(async (err: { code?: number }) => {
        // Two first requests for one address racing to create it: apply ours to theirs.
        if (err.code !== 11000) throw err;
        await this.c.addresses.updateOne({ _id: addressKey }, update);
      });
  }
}
