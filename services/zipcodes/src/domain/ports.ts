import type { ZipAnalysis, ZipListItem } from '@homereport/contracts';
import type { ZipMeasures } from './measures.js';

/** Where analyses are kept: one per ZIP code. */
export interface AnalysisStore {
  /**
   * Stores the analysis whole, replacing any earlier one of that ZIP code, in one write; answers
   * the measures of the analysis it replaced (null when there was none), read by the same write.
   */
  replace(analysis: ZipAnalysis): Promise<ZipMeasures | null>;
  find(zipCode: string): Promise<ZipAnalysis | null>;
  /** Every stored analysis as a list item, ordered by ZIP code. */
  listItems(): Promise<ZipListItem[]>;
  isEmpty(): Promise<boolean>;
}

/** The cached list; an import makes it stale. */
export interface ListInvalidation {
  invalidate(): Promise<void>;
}
