import { UserSet } from '@homereport/kit';
import type { Db } from 'mongodb';
import { SAVED_REPORTS_LIMIT, type SavedReportStore } from '../domain/saved-reports.js';

export const SAVED_REPORTS_COLLECTION = 'saved_reports';

/**
 * One document per user, `_id` the user id, `ids` the saved request ids, oldest first: the kit's
 * UserSet, so the pair user+request is unique by construction and two racing saves of one report
 * store it once.
 */
export const savedReportsStore = (db: Db): SavedReportStore =>
  new UserSet(db.collection(SAVED_REPORTS_COLLECTION), 'ids', SAVED_REPORTS_LIMIT);
