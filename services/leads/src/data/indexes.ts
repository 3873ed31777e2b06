import { CLAIM_INDEXES, type IndexSpec } from '@homereport/kit';

/**
 * The indexes this release reads through, created by its migrations (cli/migrate.ts) and checked
 * at start (decision 028). The embedded server answers quickly only through `_id` and unique
 * indexes used by a filter of exactly their fields (decision 002), hence each one below.
 */
export const INDEXES: IndexSpec[] = [
  // POST /api/webhooks/leads finds the key by the hash of the presented secret: unique, so the
  // embedded server answers from the index, and two keys can never share a secret.
  { collection: 'webhook_keys', key: { keyHash: 1 }, unique: true, name: 'keyHash_unique' },
  // The toggle flips only the state it read: findOneAndUpdate({ _id, is_active }).
  { collection: 'webhook_keys', key: { _id: 1, is_active: 1 }, unique: true, name: 'id_active_unique' },
  // Pages of the full list and PUT/GET /api/admin/leads/:id find leads by position: unique.
  { collection: 'leads', key: { seq: 1 }, unique: true, name: 'seq_unique' },
  // Pages of the list filtered by key find leads by their position in that key's list: unique.
  { collection: 'leads', key: { kp: 1 }, unique: true, name: 'kp_unique' },
  // Pages filtered by status (and key), and status changes (compare-and-set on `sp`). Sparse as
  // first created (leads then existed without positions); other options would need a new name.
  { collection: 'leads', key: { sp: 1 }, unique: true, sparse: true, name: 'sp_unique' },
  { collection: 'leads', key: { ksp: 1 }, unique: true, sparse: true, name: 'ksp_unique' },
  ...CLAIM_INDEXES,
];
