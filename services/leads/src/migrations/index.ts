import type { MigrationPlan } from '@homereport/kit';
import { INDEXES } from '../data/indexes.js';

/**
 * The leads database's migrations (decision 028): this release's indexes, created on every run
 * before the steps, and one-off idempotent steps in order (a later release appends to `steps`,
 * for example the drop of an index an earlier release stopped using).
 */
export const MIGRATIONS: MigrationPlan = { indexes: INDEXES, steps: [] };
