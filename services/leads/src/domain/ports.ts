import type { Lead, LeadStats, LeadStatus, LeadStatusChange } from '@homereport/contracts';
import type { OutboxEntry } from '@homereport/kit';
import type { InboundLead } from './inbound-lead.js';
import type { GraphLeadAnswer } from './meta-lead.js';

/** What the use cases need from storage; src/data provides it. Plain objects only. */

export interface StoredKey {
  key_name: string;
  keyHash: string;
  created_at: Date;
  last_used: Date | null;
  is_active: boolean;
}

export interface WebhookKeyStore {
  /** 'taken' when the name exists (the unique `_id` decides, so two racing creators get one key). */
  create(key: { key_name: string; keyHash: string; created_at: Date }): Promise<'created' | 'taken'>;
  list(): Promise<StoredKey[]>;
  findByHash(keyHash: string): Promise<StoredKey | null>;
  findByName(keyName: string): Promise<StoredKey | null>;
  /** Flips is_active exactly once per call, also under concurrent calls; null when unknown. */
  toggle(keyName: string): Promise<StoredKey | null>;
  /** Moves last_used forward (never back, whatever order replicas write in). */
  touch(keyName: string, at: Date): Promise<void>;
}

/** A lead's fields as the contract declares them (`id`: its list position), timestamps as Dates. */
export type LeadRecord = Omit<Lead, 'created_at' | 'status_changed_at'> & {
  created_at: Date;
  status_changed_at: Date | null;
};

export interface LeadDetail extends LeadRecord {
  status_history: (Omit<LeadStatusChange, 'at'> & { at: Date })[];
}

export interface LeadFilter {
  status?: LeadStatus;
  key_name?: string;
}

export interface LeadPage {
  leads: LeadRecord[];
  /** Position of the last lead of this page when more may follow, else null. */
  nextBefore: number | null;
}

export interface Admin {
  id: string;
  email: string;
}

export interface LeadStore {
  /**
   * Stores a new lead with its lead-received event (built from the lead's assigned id; null only
   * for seeding benchmark data), or says the same lead_id already came with this key. The write is
   * durable when this resolves.
   */
  insert(
    keyName: string,
    lead: InboundLead,
    receivedAt: Date,
    event: ((record: LeadRecord) => OutboxEntry) | null,
  ): Promise<'created' | 'duplicate'>;
  /** Newest first; `before` is the position the previous page ended at. */
  list(filter: LeadFilter, limit: number, before: number | null): Promise<LeadPage>;
  findById(id: string): Promise<LeadDetail | null>;
  /** Null when no lead has this id; the lead as it is after the change otherwise. */
  changeStatus(id: string, to: LeadStatus, by: Admin, at: Date): Promise<LeadRecord | null>;
  stats(): Promise<LeadStats>;
}

/** What reading one lead from Meta's Graph API came to. */
export type GraphLeadRead =
  | { kind: 'found'; lead: GraphLeadAnswer }
  /** Refused for this lead (deleted, no such id): it will never be readable, so it is skipped. */
  | { kind: 'gone'; reason: string }
  /** Answered, but not with a lead's fields: skipped too (reading it again gives the same). */
  | { kind: 'unreadable'; reason: string }
  /** Not read now (server error, throttled, token refused, no answer in time): Meta must deliver again. */
  | { kind: 'retry'; reason: string };

export interface LeadFormSource {
  readLead(leadgenId: string): Promise<GraphLeadRead>;
}
