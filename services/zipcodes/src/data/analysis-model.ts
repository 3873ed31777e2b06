import { ZipAnalysis } from '@homereport/contracts';
import type { Collection, Db } from 'mongodb';

/**
 * One stored analysis per ZIP code, keyed by the ZIP code itself: every read and write is an
 * equality on `_id`, the one index every MongoDB-protocol server uses (no other index needed).
 * The sections are kept as imported; the import checks them against the contract schema first.
 */
export type AnalysisDocument = Omit<ZipAnalysis, 'zipCode'> & { _id: string; importedAt: Date };

type Section = Exclude<keyof ZipAnalysis, 'zipCode'>;

/** The sections of an analysis: every field of the contract's ZipAnalysis but its key. */
export const SECTIONS = Object.keys(ZipAnalysis.properties).filter((name): name is Section => name !== 'zipCode');

/** The analyses collection. Its documents are written whole by `replace`, from sections the import has checked against the contract. */
export type AnalysisCollection = Collection<AnalysisDocument>;

export function analysesCollection(db: Db): AnalysisCollection {
  return db.collection<AnalysisDocument>('analyses');
}
