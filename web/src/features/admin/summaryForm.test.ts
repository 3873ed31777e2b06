import { describe, expect, it } from 'vitest';
import { emptySummaryForm, summaryFormOf, toSummaryBody } from './summaryForm';

describe('the headline figures form', () => {
  it('sends the filled fields, numbers as numbers, the headline trimmed', () => {
    expect(
      toSummaryBody({
        ...emptySummaryForm,
        estimated_value: '485000',
        baths: '2.5',
        year_built: ' 1987 ',
        headline: '  Corner lot.  ',
      }),
    ).toEqual({ estimated_value: 485_000, baths: 2.5, year_built: 1987, headline: 'Corner lot.' });
  });

  it('sends nothing for an empty form (which clears the figures), and what it cannot read as typed', () => {
    expect(toSummaryBody(emptySummaryForm)).toEqual({});
    expect(toSummaryBody({ ...emptySummaryForm, beds: 'three' })).toEqual({ beds: 'three' });
  });

  it('is filled with the figures stored, and those are sent back unchanged', () => {
    const stored = { monthly_rent: 2650, beds: 3, headline: 'Quiet street.' };
    const form = summaryFormOf(stored);
    expect(form).toMatchObject({ monthly_rent: '2650', beds: '3', headline: 'Quiet street.', sqft: '' });
    expect(toSummaryBody(form)).toEqual(stored);
    expect(summaryFormOf(null)).toEqual(emptySummaryForm);
  });
});
