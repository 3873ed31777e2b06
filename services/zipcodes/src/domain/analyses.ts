import { type ZipAnalysis, ZipAnalysis as ZipAnalysisSchema, type ZipListItem } from '@homereport/contracts';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';

const ZIP_CODE = /^[0-9]{5}$/;
export const isZipCode = (value: string): boolean => ZIP_CODE.test(value);

/** A record with more problems than this gets the first ones only; fixing them reveals the rest. */
export const MAX_ERRORS_PER_RECORD = 10;

const checker = TypeCompiler.Compile(ZipAnalysisSchema);

export type Checked = { ok: true; analysis: ZipAnalysis } | { ok: false; errors: string[] };

/**
 * Checks one record against the schema (contracts/api/zipcodes.ts) and the rules a schema cannot
 * say; the errors name the field and say what was expected, for the person who wrote the file.
 */
export function checkAnalysis(record: unknown): Checked {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return { ok: false, errors: ['(record): must be an object holding one ZIP code analysis'] };
  }
  const errors: string[] = [];
  for (const error of checker.Errors(record)) {
    const message = describe(error);
    if (!errors.includes(message)) errors.push(message);
    if (errors.length >= MAX_ERRORS_PER_RECORD) break;
  }
  if (errors.length > 0) return { ok: false, errors };
  const analysis = record as ZipAnalysis;
  const months = analysis.priceTrends?.twelveMonthTrend?.monthlyData ?? [];
  for (let i = 1; i < months.length; i++) {
    const [before, month] = [months[i - 1]?.month ?? '', months[i]?.month ?? ''];
    if (month <= before) {
      errors.push(
        `priceTrends.twelveMonthTrend.monthlyData.${i}.month: months must be in order, oldest first, each once (${month} follows ${before})`,
      );
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, analysis };
}

function fieldOf(error: ValueError): string {
  return error.path.replace(/^\//, '').replaceAll('/', '.') || '(record)';
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** The branch of a union that explains the failure best: not the "or null" one, when there is another. */
function innermost(error: ValueError): ValueError {
  if (error.type !== ValueErrorType.Union || error.schema.description) return error;
  const branches = error.errors.map((iterator) => [...iterator]);
  const meaningful = branches.filter((b) => !(b.length === 1 && b[0]?.type === ValueErrorType.Null));
  const first = meaningful.length === 1 ? meaningful[0]?.[0] : undefined;
  return first ? innermost(first) : error;
}

function describe(outer: ValueError): string {
  const error = innermost(outer);
  const field = fieldOf(outer);
  switch (error.type) {
    case ValueErrorType.ObjectAdditionalProperties:
      return `${field}: is not a field of a ZIP code analysis`;
    case ValueErrorType.ObjectRequiredProperty:
      return `${field}: is required`;
    default: {
      const expected = (error.schema as TSchema).description;
      if (expected) return `${field}: must be ${expected} (got ${show(error.value)})`;
      return `${field}: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)} (got ${show(error.value)})`;
    }
  }
}

/** The card of /zip for one analysis (spec section 3, list item); what is unknown is null. */
export function toListItem(analysis: ZipAnalysis): ZipListItem {
  const { reportMetadata: meta, marketFundamentals: market, executiveSummary: summary } = analysis;
  return {
    zipCode: analysis.zipCode,
    tier: meta.tier,
    location: {
      city: meta.location.city,
      state: meta.location.state,
      neighborhood: meta.location.neighborhood ?? null,
    },
    marketFundamentals: {
      medianSalePrice: { value: market?.medianSalePrice?.value ?? null },
      annualAppreciationRate: { oneYear: market?.annualAppreciationRate?.oneYear ?? null },
    },
    executiveSummary: { riskLevel: summary?.riskLevel ?? null },
    investmentProfile: meta.investmentProfile ?? null,
    priceTrends: { rentalMarket: { grossYield: analysis.priceTrends?.rentalMarket?.grossYield ?? null } },
    ...(meta.sample ? { sample: true } : {}),
  };
}
