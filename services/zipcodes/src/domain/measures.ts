import type { ZipAnalysis, ZipMeasure, ZipMeasureChange } from '@homereport/contracts';

/**
 * The measures a watcher is told about when an import changes them (issue 25): the median sale
 * price, the average two-bedroom rent, the one-year appreciation rate and the risk level.
 */
export type ZipMeasures = Record<ZipMeasure, number | string | null>;

/** The order the email lists them in. */
export const MEASURES: readonly ZipMeasure[] = ['price', 'rent', 'appreciation', 'risk'];

/** Only these paths are read back from the stored analysis an import replaces. */
export const MEASURE_PATHS = [
  'marketFundamentals.medianSalePrice.value',
  'priceTrends.rentalMarket.averageRent.twoBedroom',
  'marketFundamentals.annualAppreciationRate.oneYear',
  'executiveSummary.riskLevel',
] as const;

type MeasureSource = Pick<ZipAnalysis, 'marketFundamentals' | 'executiveSummary'> &
  Partial<Pick<ZipAnalysis, 'priceTrends'>>;

export function measuresOf(analysis: Partial<MeasureSource>): ZipMeasures {
  return {
    price: analysis.marketFundamentals?.medianSalePrice?.value ?? null,
    rent: analysis.priceTrends?.rentalMarket?.averageRent?.twoBedroom ?? null,
    appreciation: analysis.marketFundamentals?.annualAppreciationRate?.oneYear ?? null,
    risk: analysis.executiveSummary?.riskLevel ?? null,
  };
}

/** What moved between two imports of one ZIP code, in MEASURES order; empty when nothing did. */
export function measureChanges(before: ZipMeasures, after: ZipMeasures): ZipMeasureChange[] {
  return MEASURES.filter((m) => before[m] !== after[m]).map((measure) => ({
    measure,
    from: before[measure],
    to: after[measure],
  }));
}
