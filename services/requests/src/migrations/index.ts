import type { MigrationPlan } from '@homereport/kit';
import { INDEXES } from '../data/collections.js';
import { coverMergedRequests } from './cover-merged.js';
import { creditsPerProperty } from './credits-per-property.js';
import { assignProperties } from './properties.js';
import { uniqueReportsPerProperty } from './unique-reports.js';
import { fileZipCodes } from './zip-postings.js';

/**
 * The requests database's migrations (decision 028): this release's indexes, created on every
 * run before the steps, and the one-off steps in order. Each step is idempotent (running it again
 * changes nothing), so an interrupted run is simply run again; a later change (a field to fill,
 * the drop of an index an earlier release stopped using) is appended to `steps`.
 */
export const MIGRATIONS: MigrationPlan = {
  indexes: INDEXES,
  steps: [
    { name: 'properties', run: assignProperties },
    { name: 'zip-postings', run: fileZipCodes },
    { name: 'cover-merged-requests', run: coverMergedRequests },
    { name: 'credits-per-property', run: creditsPerProperty },
    { name: 'unique-reports-per-property', run: uniqueReportsPerProperty },
  ],
};
