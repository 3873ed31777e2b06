import { CREDITS_PER_PERIOD } from '../domain/credit-period.js';
import type { ChargeOutcome, CreditStore } from '../domain/ports.js';
import { type Collections, ignoreDuplicate } from './collections.js';

/**
 * Credits per user and period: `{ _id: <userId>:<period>, credits, opened }`.
 *
 * Spending is ONE conditional write: "if this report is not in `opened` and a credit is left,
 * take one and add the report". A single document's update is atomic, so however many replicas
 * open reports at once, ten different reports take exactly ten credits, and ten opens of one
 * report take exactly one. There is no second write to lose in a crash.
 */
export class CreditsRepository implements CreditStore {
  constructor(private readonly c: Collections) {}

  async creditsLeft(userId: string, periodIndex: number): Promise<number> {
    const doc = await this.c.creditPeriods.findOne({ _id: `${userId}:${periodIndex}` }, { projection: { credits: 1 } });
    return doc ? Math.max(0, doc.credits) : CREDITS_PER_PERIOD;
  }

  async charge(userId: string, periodIndex: number, requestId: string): Promise<ChargeOutcome> {
    const _id = `${userId}:${periodIndex}`;
    for (let attempt = 0; attempt < 10; attempt++) {
      const spent = await this.c.creditPeriods.findOneAndUpdate(
        { _id, opened: { $ne: requestId }, credits: { $gt: 0 } },
        { $inc: { credits: -1 }, $push: { opened: requestId } },
        { projection: { _id: 1 } },
      );
      if (spent) return 'charged';
      // Why not? Read the document: only what it says now decides, never the failed attempt alone.
      const doc = await this.c.creditPeriods.findOne({ _id }, { projection: { opened: 1, credits: 1 } });
      if (doc?.opened.includes(requestId)) return 'already-opened';
      if (doc && doc.credits <= 0) return 'no-credits';
      // The period's first view: open it with the full allowance (a racing opener may have done so
      // a moment ago, which is also why a document with credits left means: try again).
      if (!doc) {
        await this.c.creditPeriods
          .insertOne({ _id, userId, index: periodIndex, credits: CREDITS_PER_PERIOD, opened: [] })
          .catch(ignoreDuplicate);
      }
    }
    throw new Error(`credit period ${_id} stayed contended`);
  }
}
