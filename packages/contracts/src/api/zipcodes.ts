import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * HTTP shapes of ZIP code market analyses (api.md "ZIP code analyses"; spec section 3, "ZIP code
 * record"). The zipcodes service validates every imported analysis against `ZipAnalysis` and
 * derives `ZipListItem` from it; the web app takes its types from here.
 *
 * Rules the staff's files must follow:
 * - `zipCode` is five digits; `reportMetadata.tier` starts with `TIER 1:`, `TIER 2:` or `TIER 3:`
 *   followed by a label (for example `TIER 2: High-Growth`).
 * - Risk levels are one of `low`, `low-medium`, `medium`, `medium-high`, `high`.
 * - Percentages are fractions: 0.054 means 5.4%. Rates of change lie in [-1, 1], shares in [0, 1],
 *   so a 5.4 written for 5.4% is refused instead of shown as 540%.
 * - A value nobody knows may be left out or set to null; the screens show N/A. Sections after
 *   Demographics may be left out entirely; the screens then hide them.
 * - No field beyond the ones below: a misspelt name is refused rather than silently dropped.
 */

export const RISK_LEVELS = ['low', 'low-medium', 'medium', 'medium-high', 'high'] as const;
export const RiskLevel = Type.Union(
  RISK_LEVELS.map((level) => Type.Literal(level)),
  { description: 'one of low, low-medium, medium, medium-high, high' },
);
export type RiskLevel = Static<typeof RiskLevel>;

export const ZIP_CODE_PATTERN = '^[0-9]{5}$';
export const TIER_PATTERN = '^TIER [123]:\\s*\\S';

const ZipCode = Type.String({ pattern: ZIP_CODE_PATTERN, description: 'five digits, for example 02116' });
const Tier = Type.String({
  pattern: TIER_PATTERN,
  maxLength: 80,
  description: "'TIER 1:', 'TIER 2:' or 'TIER 3:' followed by a label, for example 'TIER 1: Ultra-Premium'",
});

const obj = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });
/** A value that may be unknown: left out, or null. */
const maybe = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const list = <T extends TSchema>(item: T, maxItems = 20) => Type.Optional(Type.Array(item, { maxItems }));

/** A rate of change as a fraction: 0.054 is +5.4%, -0.02 is -2%. */
const Rate = Type.Number({
  minimum: -1,
  maximum: 1,
  description: 'a fraction between -1 and 1 (0.054 means 5.4%)',
});
/** A share of a whole as a fraction: 0.42 is 42%. */
const Share = Type.Number({ minimum: 0, maximum: 1, description: 'a fraction between 0 and 1 (0.42 means 42%)' });
const Dollars = Type.Number({ minimum: 0, maximum: 1e9, description: 'an amount in U.S. dollars, 0 or more' });
const Count = Type.Integer({ minimum: 0, maximum: 1e9 });

export const ZipLocation = obj({
  city: text(100),
  state: text(60),
  neighborhood: maybe(text(150)),
});
export type ZipLocation = Static<typeof ZipLocation>;

export const ZipReportMetadata = obj({
  tier: Tier,
  location: ZipLocation,
  reportDate: Type.String({
    pattern: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
    description: 'a date written YYYY-MM-DD',
  }),
  investmentProfile: maybe(text(600)),
  /** True for generated illustrations (the sample data set); the screens label them 'Sample analysis'. */
  sample: Type.Optional(Type.Boolean()),
});

export const ZipExecutiveSummary = obj({
  keyTakeaways: list(text(600)),
  investmentThesis: maybe(text(4000)),
  bottomLineUpFront: maybe(text(2000)),
  riskLevel: maybe(RiskLevel),
  confidenceLevel: maybe(text(60)),
});

export const ZipMarketFundamentals = obj({
  medianSalePrice: Type.Optional(obj({ value: maybe(Dollars), yearOverYearChange: maybe(Rate) })),
  annualAppreciationRate: Type.Optional(obj({ oneYear: maybe(Rate) })),
  pricePerSquareFoot: Type.Optional(obj({ value: maybe(Dollars) })),
  averageDaysOnMarket: Type.Optional(obj({ current: maybe(Type.Number({ minimum: 0, maximum: 3650 })) })),
  inventoryLevels: Type.Optional(
    obj({
      monthsOfSupply: maybe(Type.Number({ minimum: 0, maximum: 240 })),
      totalActiveListings: maybe(Count),
      newListingsPerMonth: maybe(Count),
    }),
  ),
});

export const ZipDemographics = obj({
  population: Type.Optional(obj({ total: maybe(Count) })),
  householdIncome: Type.Optional(obj({ median: maybe(Dollars) })),
  education: Type.Optional(obj({ bachelors: maybe(Share) })),
  employment: Type.Optional(
    obj({
      averageCommute: maybe(Type.Number({ minimum: 0, maximum: 300, description: 'minutes, 0 to 300' })),
      unemploymentRate: maybe(Share),
      topIndustries: list(text(100)),
    }),
  ),
});

export const ZipMonthlyMedian = obj({
  month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'a month written YYYY-MM' }),
  medianPrice: Dollars,
});
export type ZipMonthlyMedian = Static<typeof ZipMonthlyMedian>;

export const ZipPriceTrends = obj({
  twelveMonthTrend: Type.Optional(
    obj({
      description: maybe(text(2000)),
      /** Oldest first, one entry per month, no month twice. */
      monthlyData: list(ZipMonthlyMedian, 36),
    }),
  ),
  rentalMarket: Type.Optional(
    obj({
      averageRent: Type.Optional(
        obj({
          studio: maybe(Dollars),
          oneBedroom: maybe(Dollars),
          twoBedroom: maybe(Dollars),
          threeBedroom: maybe(Dollars),
        }),
      ),
      grossYield: maybe(Share),
    }),
  ),
});

export const ZipBestSegment = obj({
  segment: text(200),
  rationale: maybe(text(2000)),
  expectedReturn: maybe(Rate),
  riskLevel: maybe(RiskLevel),
});

export const ZipRiskFactor = obj({ level: RiskLevel, explanation: maybe(text(2000)) });

export const ZipInvestmentAnalysis = obj({
  opportunities: Type.Optional(obj({ bestSegments: list(ZipBestSegment) })),
  /** Keyed by the factor's name, for example { "Insurance costs": { level: "high", explanation } }. */
  riskFactors: Type.Optional(
    Type.Record(Type.String({ minLength: 1, maxLength: 100 }), ZipRiskFactor, { maxProperties: 30 }),
  ),
});

export const ZipOutlook = obj({
  sixToTwelveMonths: Type.Optional(
    obj({
      priceMovement: Type.Optional(
        obj({
          /** A fraction (0.03 is +3%) or words ("flat to slightly up"). */
          forecast: maybe(Type.Union([Rate, text(500)])),
          confidence: maybe(text(60)),
        }),
      ),
      inventoryChanges: maybe(text(1000)),
      majorCatalysts: list(text(600)),
      headwinds: list(text(600)),
    }),
  ),
});

export const ZipActionableRecommendations = obj({
  immediateActions: list(text(600)),
  nextSteps: list(text(600)),
});

/** One ZIP code analysis: what staff import and what GET /api/zipcodes/:zipCode returns. */
export const ZipAnalysis = obj({
  zipCode: ZipCode,
  reportMetadata: ZipReportMetadata,
  executiveSummary: ZipExecutiveSummary,
  marketFundamentals: ZipMarketFundamentals,
  demographics: Type.Optional(ZipDemographics),
  priceTrends: Type.Optional(ZipPriceTrends),
  investmentAnalysis: Type.Optional(ZipInvestmentAnalysis),
  outlook: Type.Optional(ZipOutlook),
  actionableRecommendations: Type.Optional(ZipActionableRecommendations),
});
export type ZipAnalysis = Static<typeof ZipAnalysis>;

const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One card of /zip, derived from an analysis; unknown values are null. */
export const ZipListItem = Type.Object({
  zipCode: Type.String(),
  tier: Type.String(),
  location: Type.Object({ city: Type.String(), state: Type.String(), neighborhood: orNull(Type.String()) }),
  marketFundamentals: Type.Object({
    medianSalePrice: Type.Object({ value: orNull(Type.Number()) }),
    annualAppreciationRate: Type.Object({ oneYear: orNull(Type.Number()) }),
  }),
  executiveSummary: Type.Object({ riskLevel: orNull(RiskLevel) }),
  investmentProfile: orNull(Type.String()),
  /**
   * The gross rental yield, which the map of /zip colours by (issue 25). Beyond spec section 3's
   * list fields, so optional: an answer kept from before it existed has none, read as unknown.
   */
  priceTrends: Type.Optional(Type.Object({ rentalMarket: Type.Object({ grossYield: orNull(Type.Number()) }) })),
  /** Present and true for sample data. */
  sample: Type.Optional(Type.Boolean()),
});
export type ZipListItem = Static<typeof ZipListItem>;

/** GET /api/zipcodes without query parameters: every analysis (the original contract). */
export const ZipListReply = Type.Object({ zipCodes: Type.Array(ZipListItem) });
export type ZipListReply = Static<typeof ZipListReply>;

/** Cards per page when `limit` is not given, as /zip shows them; and the most one answer holds. */
export const ZIP_PAGE_DEFAULT = 24;
export const ZIP_PAGE_MAX = 100;
/** Far past any list we hold (about 42,000 ZIP codes exist), so the number stays a safe integer. */
export const ZIP_OFFSET_MAX = 1_000_000;

/**
 * Query of GET /api/zipcodes. Any of these turns the answer into a page (`ZipListPage`); the
 * search rules are in zipcodes-search.ts. `limit` and `offset` are whole numbers (query strings
 * are coerced to a schema's integer: kit's app.ts).
 */
export const ZipListQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'at most 100 characters: part of a ZIP code, city, state or neighborhood',
      }),
    ),
    tier: Type.Optional(
      Type.Union([Type.Literal('1'), Type.Literal('2'), Type.Literal('3')], { description: '1, 2 or 3' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: ZIP_PAGE_MAX, description: `a whole number from 1 to ${ZIP_PAGE_MAX}` }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: ZIP_OFFSET_MAX, description: `a whole number from 0 to ${ZIP_OFFSET_MAX}` }),
    ),
    /** Only these ZIP codes (the ones a page of Browse cards is in: one call for their tiers). */
    codes: Type.Optional(
      Type.String({
        pattern: `^[0-9]{5}(,[0-9]{5}){0,${ZIP_PAGE_MAX - 1}}$`,
        description: `up to ${ZIP_PAGE_MAX} ZIP codes of five digits, separated by commas`,
      }),
    ),
  },
  // An unknown or misspelt parameter (?teir=1) is refused rather than ignored.
  { additionalProperties: false },
);
export type ZipListQuery = Static<typeof ZipListQuery>;

/**
 * GET /api/zipcodes?q=&tier=&limit=&offset=: the matches from `offset`, at most `limit` of them,
 * in ZIP code order. `total` and `premium` (Tier 1) count every stored analysis, `showing` the
 * ones matching q and tier; `next_offset` asks for the next page, null on the last one.
 */
export const ZipListPage = Type.Object({
  zipCodes: Type.Array(ZipListItem),
  total: Type.Integer({ minimum: 0 }),
  premium: Type.Integer({ minimum: 0 }),
  showing: Type.Integer({ minimum: 0 }),
  next_offset: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type ZipListPage = Static<typeof ZipListPage>;

/** GET /api/zipcodes/:zipCode */
export const ZipDetailReply = Type.Object({ zipCode: ZipAnalysis });
export type ZipDetailReply = Static<typeof ZipDetailReply>;

/** POST /api/admin/zipcodes/import: what was stored and, per refused record, why. */
export const ZipImportReport = Type.Object({
  imported: Type.Array(Type.String()),
  refused: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'Position of the record in the array sent.' }),
      zipCode: Type.Optional(Type.String()),
      errors: Type.Array(Type.String()),
    }),
  ),
});
export type ZipImportReport = Static<typeof ZipImportReport>;
