import { type Static, Type } from '@sinclair/typebox';
import { CoverageRequest } from './requests.js';

/**
 * Saved reports and watched ZIP codes of the signed-in user (api.md, "Beyond the spec").
 * The requests service keeps the saved reports, the zipcodes service the watches.
 */

/** The most reports one user keeps saved; saving one more answers 409 until one is removed. */
export const SAVED_REPORTS_MAX = 200;
/** The most ZIP codes one user watches; watching one more answers 409 until one is dropped. */
export const ZIP_WATCHES_MAX = 50;

/** GET /api/users/saved: the saved reports still covered, newest saved first, without file links. */
export const SavedReportsReply = Type.Object({ saved: Type.Array(CoverageRequest) });
export type SavedReportsReply = Static<typeof SavedReportsReply>;

/** `:requestId` of PUT and DELETE /api/users/saved/:requestId. */
export const SavedReportParams = Type.Object({ requestId: Type.String({ minLength: 1, maxLength: 64 }) });
export type SavedReportParams = Static<typeof SavedReportParams>;

/** GET /api/users/zip-watch: the watched ZIP codes, most recently watched first. */
export const ZipWatchReply = Type.Object({ zips: Type.Array(Type.String({ pattern: '^[0-9]{5}$' })) });
export type ZipWatchReply = Static<typeof ZipWatchReply>;

/** `:zipCode` of PUT and DELETE /api/users/zip-watch/:zipCode: five digits, else 400. */
export const ZipWatchParams = Type.Object({
  zipCode: Type.String({ pattern: '^[0-9]{5}$', description: 'Five-digit U.S. ZIP code' }),
});
export type ZipWatchParams = Static<typeof ZipWatchParams>;
