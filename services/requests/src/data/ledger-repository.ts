import type { OutboxEntry, OutboxRecorder } from '@homereport/kit';
import type { ViewLedger, ViewRecord } from '../domain/ports.js';
import type { Collections } from './collections.js';

/** The access ledger: one document per report view, carrying its report-viewed event. */
export class LedgerRepository implements ViewLedger {
  constructor(
    private readonly c: Collections,
    private readonly outbox: OutboxRecorder,
  ) {}

  async record(view: ViewRecord, events: OutboxEntry[]): Promise<void> {
    await this.outbox.record('access_log', view.viewId, () =>
      this.c.accessLog.insertOne({
        _id: view.viewId,
        userId: view.userId,
        requestId: view.requestId,
        ...(view.propertyId ? { propertyId: view.propertyId } : {}),
        address: view.address,
        at: view.at,
        charged: view.charged,
        pending: true,
        outbox: events,
      }),
    );
  }

  async find(viewId: string): Promise<ViewRecord | null> {
    const doc = await this.c.accessLog.findOne({ _id: viewId }, { projection: { outbox: 0 } });
    if (!doc) return null;
    return {
      viewId: doc._id,
      userId: doc.userId,
      requestId: doc.requestId,
      ...(doc.propertyId ? { propertyId: doc.propertyId } : {}),
      address: doc.address,
      at: doc.at,
      charged: doc.charged,
      pending: doc.pending === true,
    };
  }

  async claimPending(viewId: string): Promise<boolean> {
    // By _id alone; the document as it was before says whether this caller took the mark.
    const before = await this.c.accessLog.findOneAndUpdate(
      { _id: viewId },
      { $unset: { pending: '' } },
      { returnDocument: 'before', projection: { pending: 1 } },
    );
    return before?.pending === true;
  }
}
