import type { ZipAnalysis, ZipListItem } from '@homereport/contracts';
import { toListItem } from '../domain/analyses.js';
import { MEASURE_PATHS, type ZipMeasures, measuresOf } from '../domain/measures.js';
import type { AnalysisStore } from '../domain/ports.js';
import { type AnalysisCollection, type AnalysisDocument, SECTIONS } from './analysis-model.js';

/** The fields a list item is made of; the list reads only these. */
const LIST_FIELDS = {
  'reportMetadata.tier': 1,
  'reportMetadata.location': 1,
  'reportMetadata.investmentProfile': 1,
  'reportMetadata.sample': 1,
  'marketFundamentals.medianSalePrice.value': 1,
  'marketFundamentals.annualAppreciationRate.oneYear': 1,
  'executiveSummary.riskLevel': 1,
  'priceTrends.rentalMarket.grossYield': 1,
} as const;

const BEFORE_FIELDS = Object.fromEntries(MEASURE_PATHS.map((path) => [path, 1]));

function toAnalysis(doc: AnalysisDocument): ZipAnalysis {
  const analysis: Record<string, unknown> = { zipCode: doc._id };
  for (const name of SECTIONS) if (doc[name] !== undefined && doc[name] !== null) analysis[name] = doc[name];
  return analysis as ZipAnalysis;
}

/** Analyses in the zipcodes database; hands out plain objects only. */
export class AnalysesRepository implements AnalysisStore {
  constructor(private readonly analyses: AnalysisCollection) {}

  async replace(analysis: ZipAnalysis): Promise<ZipMeasures | null> {
    const { zipCode } = analysis;
    // The contract's sections only, as sent (an empty one, {}, stays).
    const sections = Object.fromEntries(
      SECTIONS.filter((name) => analysis[name] !== undefined).map((name) => [name, analysis[name]]),
    ) as Omit<AnalysisDocument, '_id' | 'importedAt'>;
    // One replace by _id (upsert): the stored record is wholly the old one or wholly the new one.
    // The document as it was comes back from the same write (only the measures watchers hear
    // about), so what an import changed is known without a read that a racing import could pass.
    const before = await this.analyses.findOneAndReplace(
      { _id: zipCode },
      { ...sections, importedAt: new Date() },
      { upsert: true, returnDocument: 'before', projection: BEFORE_FIELDS, includeResultMetadata: false },
    );
    return before ? measuresOf(before as never) : null;
  }

  async find(zipCode: string): Promise<ZipAnalysis | null> {
    // Equality on _id.
    const doc = await this.analyses.findOne({ _id: zipCode }, { projection: { importedAt: 0 } });
    return doc ? toAnalysis(doc) : null;
  }

  async listItems(): Promise<ZipListItem[]> {
    // The whole collection on purpose: the list shows every analysis. It runs once per import
    // (the list is cached), never per request.
    const docs = await this.analyses.find({}, { projection: LIST_FIELDS }).toArray();
    // Five digits each, so plain string order is numeric order. Not localeCompare: its first call
    // loads ICU's collation data, about 3 MB resident for the life of the process (bench:memory).
    return docs
      .map((doc) => toListItem(toAnalysis(doc)))
      .sort((a, b) => (a.zipCode < b.zipCode ? -1 : a.zipCode > b.zipCode ? 1 : 0));
  }

  async isEmpty(): Promise<boolean> {
    return (await this.analyses.findOne({}, { projection: { _id: 1 } })) === null;
  }
}
