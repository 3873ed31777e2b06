import { ZipAnalysis } from '@homereport/contracts';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * One stored analysis per ZIP code, keyed by the ZIP code itself: every read and write is an
 * equality on `_id`, the one index every MongoDB-protocol server uses (no other index needed).
 * The sections are kept as imported; the import checks them against the contract schema first.
 */
export type AnalysisDocument = Omit<ZipAnalysis, 'zipCode'> & { _id: string; importedAt: Date };

type Section = Exclude<keyof ZipAnalysis, 'zipCode'>;

/** The sections of an analysis: every field of the contract's ZipAnalysis but its key. */
export const SECTIONS = Object.keys(ZipAnalysis.properties).filter((name): name is Section => name !== 'zipCode');

const required = new Set<string>(ZipAnalysis.required);

const analysisSchema = new Schema<AnalysisDocument>(
  {
    _id: { type: String, required: true },
    ...Object.fromEntries(SECTIONS.map((name) => [name, { type: Schema.Types.Mixed, required: required.has(name) }])),
    importedAt: { type: Date, required: true },
  },
  // minimize off: an empty section the staff sent ({}) is kept as sent.
  { collection: 'analyses', versionKey: false, strict: true, minimize: false },
);

export type AnalysisModel = Model<AnalysisDocument>;

export function analysisModel(conn: Connection): AnalysisModel {
  return (
    (conn.models.Analysis as AnalysisModel | undefined) ?? conn.model<AnalysisDocument>('Analysis', analysisSchema)
  );
}
