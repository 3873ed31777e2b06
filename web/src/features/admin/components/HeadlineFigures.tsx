import {
  type CoverageRequest,
  SUMMARY_HEADLINE_MAX_LENGTH,
  SUMMARY_MONEY_MAX,
  SUMMARY_YEAR_MIN,
} from '@homereport/contracts';
import { type FormEvent, useState } from 'react';
import { TextField } from '../../../components/Field';
import { FormProblemAlert, SubmitButton, problemMarks } from '../../../components/Form';
import { Icon } from '../../../components/Icon';
import { problemOfError } from '../../../session/formProblem';
import { useUpdateSummary } from '../api/adminRequest';
import { type SummaryForm, latestYearBuilt, summaryFormOf, toSummaryBody } from '../summaryForm';

const PROBLEM_ID = 'summary-problem';

/** The number fields: label, the API's range (api.md "Report summary") and what to type. */
const NUMBER_FIELDS = [
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
] as const;

/**
 * "Headline figures" of the admin request page: the report's figures, the property's, so every
 * request of it shows them (decision 024). Editable before and after covering; saving replaces
 * them whole, and an emptied form clears them.
 */
export function HeadlineFigures({ request, onSaved }: { request: CoverageRequest; onSaved: () => void }) {
  const [form, setForm] = useState<SummaryForm>(() => summaryFormOf(request.summary));
  const save = useUpdateSummary(request.id);
  const problem = problemOfError(save.error);
  const marks = problemMarks(problem, PROBLEM_ID);
  const latestYear = latestYearBuilt();

  function update(field: keyof SummaryForm) {
    return (value: string) => setForm((current) => ({ ...current, [field]: value }));
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(toSummaryBody(form), {
      onSuccess: (reply) => {
        // What the server holds now (the headline trimmed, empty fields gone).
        setForm(summaryFormOf(reply.request.summary));
        onSaved();
      },
    });
  }

  return (
    <section className="card summary-card" data-testid="headline-figures" aria-labelledby="headline-figures-title">
      <h2 className="card-title" id="headline-figures-title">
        <Icon name="chart" /> Headline Figures
      </h2>
      <p className="muted summary-hint">
        Shown on the report's Browse card and report page, for every request of this property. Leave a field empty to
        leave it out; empty every field to remove them.
      </p>
      <FormProblemAlert problem={problem} id={PROBLEM_ID} testId="summary-error" />
      <form className="form" onSubmit={handleSubmit} data-testid="summary-form">
        <div className="summary-grid">
          {NUMBER_FIELDS.map(({ field, label, min, max, step, placeholder }) => (
            <TextField
              key={field}
              id={`summary-${field}`}
              label={label}
              name={field}
              type="number"
              inputMode={step === 1 ? 'numeric' : 'decimal'}
              min={min}
              max={max}
              step={step}
              {...marks(field)}
              value={form[field]}
              onChange={update(field)}
              placeholder={placeholder}
            />
          ))}
          <TextField
            id="summary-year_built"
            label="Year Built"
            name="year_built"
            type="number"
            inputMode="numeric"
            min={SUMMARY_YEAR_MIN}
            max={latestYear}
            step={1}
            {...marks('year_built')}
            value={form.year_built}
            onChange={update('year_built')}
            placeholder="1987"
          />
        </div>
        <TextField
          id="summary-headline"
          label="Headline"
          name="headline"
          type="text"
          maxLength={SUMMARY_HEADLINE_MAX_LENGTH}
          showCount
          {...marks('headline')}
          value={form.headline}
          onChange={update('headline')}
          placeholder="Corner lot near the light rail, priced under the street."
        />
        <SubmitButton sending={save.isPending} sendingLabel="Saving Figures..." testId="summary-save">
          <Icon name="check" size={18} /> Save Figures
        </SubmitButton>
      </form>
    </section>
  );
}
