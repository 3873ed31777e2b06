import { type ReportSummary, SUMMARY_MONEY_MAX, SUMMARY_YEAR_MIN } from '@homereport/contracts';

/**
 * The admin's "Headline figures" form (api.md "Report summary"): what each field holds as typed,
 * and the body of PUT /api/admin/requests/:id/summary made from it. A field left empty is not
 * sent; the server checks the ranges and says what is wrong, in the words every form uses.
 * One list of the number fields, with each one's label, the API's range and what to type, makes
 * both the form and the body.
 */
export const SUMMARY_NUMBER_FIELDS = [
  {
    field: 'estimated_value',
    label: 'Estimated Value (USD)',
    min: 1,
    max: SUMMARY_MONEY_MAX,
    step: 1,
    placeholder: '485000',
  },
  { field: 'monthly_rent', label: 'Monthly Rent (USD)', min: 1, max: SUMMARY_MONEY_MAX, step: 1, placeholder: '2650' },
  { field: 'beds', label: 'Bedrooms', min: 0, max: 50, step: 1, placeholder: '3' },
  { field: 'baths', label: 'Bathrooms', min: 0, max: 50, step: 0.5, placeholder: '2.5' },
  { field: 'sqft', label: 'Square Feet', min: 100, max: 100_000, step: 1, placeholder: '1840' },
  // Up to next year (latestYearBuilt), read when the form is shown.
  { field: 'year_built', label: 'Year Built', min: SUMMARY_YEAR_MIN, max: undefined, step: 1, placeholder: '1987' },
] as const;
export type SummaryNumberField = (typeof SUMMARY_NUMBER_FIELDS)[number]['field'];

export type SummaryForm = Record<SummaryNumberField | 'headline', string>;

export const emptySummaryForm = Object.fromEntries(
  [...SUMMARY_NUMBER_FIELDS.map(({ field }) => field), 'headline'].map((field) => [field, '']),
) as SummaryForm;

/** The form filled with the figures stored, so saving again without a change sends them back as they were. */
export function summaryFormOf(summary: ReportSummary | null | undefined): SummaryForm {
  const form = { ...emptySummaryForm };
  if (!summary) return form;
  for (const { field } of SUMMARY_NUMBER_FIELDS) {
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
  for (const { field } of SUMMARY_NUMBER_FIELDS) {
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
