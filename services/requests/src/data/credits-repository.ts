import { ignoreDuplicate } from '@homereport/kit';
import { CREDITS_PER_PERIOD } from '../domain/credit-period.js';
import type { ChargeOutcome, CreditStore } from '../domain/ports.js';
import type { Collections } from './collections.js';

/**
 * Credits per user and period: `{ _id: <userId>:<period>, credits, opened }`.
 *
 * Every write is by `_id` alone: on mongo-java-server a filter with anything more scans the whole
 * collection whenever it does not match (measured at 100k documents: seconds per call). The
 * decisions come from the document as it was just before each atomic write (`returnDocument:
 * 'before'`, whose values are exact under concurrency, unlike 'after'):
 *   1. `$addToSet: { opened: report }`: if the report was already there, this open is free (one
 *      of ten simultaneous opens of a report adds it; the nine others see it and pay nothing);
 *   2. otherwise `$inc: { credits: -1 }`: a credit was left if the count before was positive (of
 *      twenty simultaneous first opens of different reports exactly ten see 10, 9, ... 1);
 *   3. otherwise give both back (`$inc: +1`, `$pull` the report) and answer "no credits".
 * A failure only ever happens once ten were taken, so nobody is refused while credits remain.
 * Crashing between the steps errs for the user: a report marked opened and not paid for.
 */
export class CreditsRepository implements CreditStore {
  constructor(private readonly c: Collections) {}

  async creditsLeft(userId: string, periodIndex: number): Promise<number> {
    const doc = await this.c.creditPeriods.findOne({ _id: `${userId}:${periodIndex}` }, { projection: { credits: 1 } });
    return doc ? Math.max(0, doc.credits) : CREDITS_PER_PERIOD;
  }

  async charge(userId: string, periodIndex: number, requestId: string): Promise<ChargeOutcome> {
    const _id = `${userId}:${periodIndex}`;
    const current = await this.c.creditPeriods.findOne({ _id }, { projection: { opened: 1 } });
    if (current?.opened.includes(requestId)) return 'already-opened';
    if (!current) {
      // The period's first view: open it with the full allowance (a racing opener may have done so).
      await this.c.creditPeriods
        .insertOne({ _id, userId, index: periodIndex, credits: CREDITS_PER_PERIOD, opened: [] })
        .catch(ignoreDuplicate);
    }
    const claimed = await this.c.creditPeriods.findOneAndUpdate(
      { _id },
      { $addToSet: { opened: requestId } },
      { returnDocument: 'before', projection: { opened: 1 } },
    );
    if (!claimed) throw new Error(`credit period ${_id} vanished`);
    if (claimed.opened.includes(requestId)) return 'already-opened';
    const paid = await this.c.creditPeriods.findOneAndUpdate(
      { _id },
      { $inc: { credits: -1 } },
      { returnDocument: 'before', projection: { credits: 1 } },
    );
    if (paid && paid.credits > 0) return 'charged';
    await this.c.creditPeriods.updateOne({ _id }, { $inc: { credits: 1 }, $pull: { opened: requestId } });
    return 'no-credits';
  }
}
