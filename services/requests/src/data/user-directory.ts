import { isDuplicateKey } from '@homereport/kit';
import type { UserDirectory } from '../domain/ports.js';
import type { Collections } from './collections.js';

/** Users seen in auth's events, keyed by user id, with what the dashboard counters include. */
export class UserDirectoryRepository implements UserDirectory {
  constructor(private readonly c: Collections) {}

  async observe(userId: string, verified: boolean) {
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.c.directory.findOneAndUpdate(
          { _id: userId },
          verified
            ? {
                $set: { verified: true },
                $setOnInsert: { registeredCounted: false, verifiedCounted: false, firstSeenAt: new Date() },
              }
            : {
                $setOnInsert: {
                  verified: false,
                  registeredCounted: false,
                  verifiedCounted: false,
                  firstSeenAt: new Date(),
                },
              },
          { upsert: true, returnDocument: 'after' },
        );
        if (!doc) throw new Error(`user ${userId} could not be recorded`);
        return { countRegistered: !doc.registeredCounted, countVerified: doc.verified && !doc.verifiedCounted };
      } catch (err) {
        // Two first sightings racing: the loser's insert fails; read again.
        if (!isDuplicateKey(err) || attempt > 2) throw err;
      }
    }
  }

  async markCounted(userId: string, what: 'registered' | 'verified'): Promise<void> {
    await this.c.directory.updateOne(
      { _id: userId },
      { $set: what === 'registered' ? { registeredCounted: true } : { verifiedCounted: true } },
    );
  }
}
