import type { ReportSummary } from '@homereport/contracts';

/**
 * The admin's "Headline figures" form (api.md "Report summary"): what each field holds as typed,
 * and the body of PUT /api/admin/requests/:id/summary made from it. A field left empty is not
 * sent; the server checks the ranges and says what is wrong, in the words every form uses.
 */
export const SUMMARY_NUMBER_FIELDS = [
  'estimated_value',
  'monthly_rent',
  'beds',
  'baths',
  'sqft',
  'year_built',
] as const;
export type SummaryNumberField = (typeof SUMMARY_NUMBER_FIELDS)[number];

export type SummaryForm = Record<SummaryNumberField | 'headline', string>;

export const emptySummaryForm: SummaryForm = {
  estimated_value: '',
  monthly_rent: '',
  beds: '',
  baths: '',
  sqft: '',
  year_built: '',
  headline: '',
};

/** The form filled with the figures stored, so saving again without a change sends them back as they were. */
export function summaryFormOf(summary: ReportSummary | null | undefined): SummaryForm {
  const form = { ...emptySummaryForm };
  if (!summary) return form;
  for (const field of SUMMARY_NUMBER_FIELDS) {
    const value = summary[field];
    if (value !== undefined) form[field] = String(value);
  }
  form.headline = summary.headline ?? '';
  return form;
}

/**
 * The body: each filled field, numbers as numbers. A value the browser could not read as a number
 * is sent as typed, so the server refuses it with its message rather than the form dropping it.
 */
export function toSummaryBody(form: SummaryForm): ReportSummary {
  const body: Record<string, unknown> = {};
  for (const field of SUMMARY_NUMBER_FIELDS) {
    const typed = form[field].trim();
    if (typed === '') continue;
    const value = Number(typed);
    body[field] = Number.isFinite(value) ? value : typed;
  }
  const headline = form.headline.trim();
  if (headline) body.headline = headline;
  return body as ReportSummary;
}

/** The latest "year built" the API takes: next year. */
export const latestYearBuilt = (now = new Date()) => now.getFullYear() + 1;
