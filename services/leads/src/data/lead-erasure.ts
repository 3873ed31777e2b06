import type { Db } from 'mongodb';
import type { AccountErasure } from '../domain/forget-account.js';

/** Who a status change by a deleted admin is attributed to from then on: no address, no id anyone has. */
const DELETED_ADMIN = { id: 'deleted-user', email: 'deleted user' } as const;
/** What replaces a deleted account's address inside a lead's stored copy of the post. */
export const ERASED = '(erased)';

/**
 * The deadline of one erasure step. Leads are found here by address or by who changed them,
 * which no unique index covers: the embedded server scans (seconds at 100k leads), longer than
 * MONGO_TIMEOUT_MS, which is meant for calls a person waits on. This runs in the account-deleted
 * consumer, once per deleted account, and must finish.
 */
export const ERASURE_TIMEOUT_MS = 60_000;
const slow = { timeoutMS: ERASURE_TIMEOUT_MS } as const;

const escaped = (email: string) => email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The whole address in any letter case (ad platforms send it as the person typed it). */
const sameAddress = (email: string) => ({ $regex: `^${escaped(email)}$`, $options: 'i' });

interface ErasableLead {
  _id: string;
  /** The post as received (JSON text). */
  raw?: string;
  /** Its lead-received event, kept with the lead once published (JSON text; a document in older leads). */
  event?: string | Record<string, unknown>;
}

export class LeadErasureRepository implements AccountErasure {
  constructor(private readonly db: Db) {}

  private get leads() {
    return this.db.collection<ErasableLead & Record<string, unknown>>('leads');
  }

  async unnameStatusChanges(userId: string, email: string): Promise<number> {
    const latest = await this.leads.updateMany(
      { status_changed_by: sameAddress(email) },
      { $set: { status_changed_by: DELETED_ADMIN.email } },
      slow,
    );
    // Neither write touches `sp`, the compare-and-set of status changes: a change racing this
    // one still applies, and names whoever made it.
    await this.leads.updateMany(
      { 'status_history.by.id': userId },
      { $set: { 'status_history.$[change].by': DELETED_ADMIN } },
      { ...slow, arrayFilters: [{ 'change.by.id': userId }] },
    );
    return latest.modifiedCount;
  }

  async eraseLeadAddress(email: string): Promise<number> {
    const found = await this.leads
      .find({ email: sameAddress(email) }, { ...slow, projection: { raw: 1, event: 1 } })
      .toArray();
    const anywhere = new RegExp(escaped(email), 'gi');
    const erase = (text: string) => text.replace(anywhere, ERASED);
    for (const lead of found) {
      const set: Record<string, unknown> = { email: null };
      if (typeof lead.raw === 'string') set.raw = erase(lead.raw);
      // Still unpublished, the event then goes out without the address, as the lead now is.
      if (typeof lead.event === 'string') set.event = erase(lead.event);
      else if (lead.event) set.event = JSON.parse(erase(JSON.stringify(lead.event)));
      await this.leads.updateOne({ _id: lead._id }, { $set: set });
    }
    return found.length;
  }
}
