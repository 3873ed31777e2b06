import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { CoverageRequest } from './requests.js';
import { RiskLevel, type ZipAnalysis, ZipMonthlyMedian } from './zipcodes.js';

/**
 * Report viewing and report files (api.md: GET /api/requests/:id/view, the upload, signed links).
 */

/**
 * The files a report has, declared once for requests, files and the web app: the multipart part
 * names of POST /api/admin/requests/:id/upload (one file per part), and `<type>_path` on a request.
 */
export const REPORT_FILE_TYPES = ['report', 'strategy', 'school_report', 'neighborhood_report'] as const;
export const ReportFileType = Type.Union(REPORT_FILE_TYPES.map((t) => Type.Literal(t)));
export type ReportFileType = (typeof REPORT_FILE_TYPES)[number];

/** The request field that links to the file of each type. */
export type ReportPathField = `${ReportFileType}_path`;

const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The headline figures of the ZIP code analysis of a report's property (api.md "Report summary"),
 * derived from the analysis by `reportZipAnalysis`: what the report page shows in context, with
 * a link to the whole analysis at /zip/:zip. Unknown values are null; fractions as in the
 * analysis (0.054 is 5.4%).
 */
export const ReportZipAnalysis = Type.Object({
  zip_code: Type.String(),
  city: Type.String(),
  state: Type.String(),
  neighborhood: orNull(Type.String()),
  /** As the analysis writes it, 'TIER 2: High-Growth'. */
  tier: Type.String(),
  median_price: orNull(Type.Number({ description: 'median sale price, U.S. dollars' })),
  /** The median sale price's change over a year, a fraction. */
  price_change_1y: orNull(Type.Number()),
  /** The annual appreciation rate over one year, a fraction. */
  one_year_appreciation: orNull(Type.Number()),
  /**
   * The middle of the ZIP's average monthly rents by unit size (studio to three bedrooms) that
   * are known, U.S. dollars; `rents` has each of them.
   */
  median_rent: orNull(Type.Number()),
  rents: Type.Object({
    studio: orNull(Type.Number()),
    one_bedroom: orNull(Type.Number()),
    two_bedroom: orNull(Type.Number()),
    three_bedroom: orNull(Type.Number()),
  }),
  gross_yield: orNull(Type.Number({ description: 'a fraction' })),
  risk_level: orNull(RiskLevel),
  days_on_market: orNull(Type.Number()),
  /** The monthly median sale prices, oldest first: the trend chart (empty when the analysis has none). */
  monthly_prices: Type.Array(ZipMonthlyMedian),
  /** The analysis's date, YYYY-MM-DD. */
  report_date: Type.String(),
  /** True for the generated sample analyses, which the screens label as such. */
  sample: Type.Boolean(),
});
export type ReportZipAnalysis = Static<typeof ReportZipAnalysis>;

/** The middle value (the mean of the two middle ones for an even count); null for none. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The headline figures of an analysis, as GET /api/requests/:id/view answers them. */
export function reportZipAnalysis(analysis: ZipAnalysis): ReportZipAnalysis {
  const market = analysis.marketFundamentals;
  const rent = analysis.priceTrends?.rentalMarket?.averageRent;
  const rents = {
    studio: rent?.studio ?? null,
    one_bedroom: rent?.oneBedroom ?? null,
    two_bedroom: rent?.twoBedroom ?? null,
    three_bedroom: rent?.threeBedroom ?? null,
  };
  const location = analysis.reportMetadata.location;
  return {
    zip_code: analysis.zipCode,
    city: location.city,
    state: location.state,
    neighborhood: location.neighborhood ?? null,
    tier: analysis.reportMetadata.tier,
    median_price: market.medianSalePrice?.value ?? null,
    price_change_1y: market.medianSalePrice?.yearOverYearChange ?? null,
    one_year_appreciation: market.annualAppreciationRate?.oneYear ?? null,
    median_rent: median(Object.values(rents).filter((v): v is number => typeof v === 'number')),
    rents,
    gross_yield: analysis.priceTrends?.rentalMarket?.grossYield ?? null,
    risk_level: analysis.executiveSummary.riskLevel ?? null,
    days_on_market: market.averageDaysOnMarket?.current ?? null,
    monthly_prices: analysis.priceTrends?.twelveMonthTrend?.monthlyData ?? [],
    report_date: analysis.reportMetadata.reportDate,
    sample: analysis.reportMetadata.sample === true,
  };
}

/** What a report file is: the page shows a PDF inline and offers a Word document for download. */
export const REPORT_FILE_FORMATS = ['pdf', 'doc', 'docx'] as const;
export type ReportFileFormat = (typeof REPORT_FILE_FORMATS)[number];
export const ReportDocumentInfo = Type.Object({
  type: ReportFileType,
  /** Null for a file whose format was not recorded (the page then offers it for download only). */
  format: Type.Union([...REPORT_FILE_FORMATS.map((f) => Type.Literal(f)), Type.Null()]),
  /** Bytes. */
  size: Type.Integer({ minimum: 0 }),
});
export type ReportDocumentInfo = Static<typeof ReportDocumentInfo>;

const FORMAT_OF_CONTENT_TYPE: Record<string, ReportFileFormat> = {
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** The format of a stored file: its recorded content type, else its name's extension, else unknown. */
export function reportFileFormat(contentType: string | undefined, name: string | undefined): ReportFileFormat | null {
  const byType = contentType ? FORMAT_OF_CONTENT_TYPE[contentType] : undefined;
  if (byType) return byType;
  const ext = /\.([a-z]+)$/i.exec(name ?? '')?.[1]?.toLowerCase();
  return (REPORT_FILE_FORMATS as readonly string[]).includes(ext ?? '') ? (ext as ReportFileFormat) : null;
}

/**
 * GET /api/requests/:id/view: 200 with signed file links; 404 unknown or not covered; 402 no
 * credits left. `request.zip_code` is the property's ZIP5 (null when its address has none);
 * `zip_analysis` the headline figures of that ZIP's analysis, null when there is none or the
 * analyses cannot be read right now (the report opens all the same).
 */
export const ReportViewReply = Type.Object({
  request: CoverageRequest,
  /** The report's files (those it has, in REPORT_FILE_TYPES order): what the page may show inline. */
  documents: Type.Array(ReportDocumentInfo),
  zip_analysis: orNull(ReportZipAnalysis),
});
export type ReportViewReply = Static<typeof ReportViewReply>;

/** 200 of the upload: the request with links to the new files. */
export const UploadReportsReply = Type.Object({ request: CoverageRequest });
export type UploadReportsReply = Static<typeof UploadReportsReply>;

/** Query of a signed download link `/api/files/<key>?expires=...&signature=...`. */
export const SignedLinkQuery = Type.Object({
  expires: Type.String({ pattern: '^[0-9]{1,16}$' }),
  signature: Type.String({ minLength: 1, maxLength: 256 }),
});
export type SignedLinkQuery = Static<typeof SignedLinkQuery>;
