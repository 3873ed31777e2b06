import { type Connection, type Model, Schema } from 'mongoose';

/**
 * One stored analysis per ZIP code, keyed by the ZIP code itself: every read and write is an
 * equality on `_id`, the one index every MongoDB-protocol server uses (no other index needed).
 * The sections are kept as imported; the import checks them against the contract schema first.
 */
export interface AnalysisDocument {
  _id: string;
  reportMetadata: Record<string, unknown>;
  executiveSummary: Record<string, unknown>;
  marketFundamentals: Record<string, unknown>;
  demographics?: Record<string, unknown>;
  priceTrends?: Record<string, unknown>;
  investmentAnalysis?: Record<string, unknown>;
  outlook?: Record<string, unknown>;
  actionableRecommendations?: Record<string, unknown>;
  importedAt: Date;
}

export const SECTIONS = [
  'reportMetadata',
  'executiveSummary',
  'marketFundamentals',
  'demographics',
  'priceTrends',
  'investmentAnalysis',
  'outlook',
  'actionableRecommendations',
] as const;

const section = { type: Schema.Types.Mixed };

const analysisSchema = new Schema<AnalysisDocument>(
  {
    _id: { type: String, required: true },
    reportMetadata: { ...section, required: true },
    executiveSummary: { ...section, required: true },
    marketFundamentals: { ...section, required: true },
    demographics: section,
    priceTrends: section,
    investmentAnalysis: section,
    outlook: section,
    actionableRecommendations: section,
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
