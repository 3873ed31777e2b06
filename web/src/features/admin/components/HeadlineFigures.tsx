import { type CoverageRequest, SUMMARY_HEADLINE_MAX_LENGTH } from '@homereport/contracts';
import type { FormEvent } from 'react';
import { CardSection } from '../../../components/CardSection';
import { TextField } from '../../../components/Field';
import { PendingButton, ProblemAlert, useFormFields } from '../../../components/Form';
import { Icon } from '../../../components/Icon';
import { problemOfError } from '../../../session/formProblem';
import { useUpdateSummary } from '../api/adminRequest';
import { SUMMARY_NUMBER_FIELDS, latestYearBuilt, summaryFormOf, toSummaryBody } from '../summaryForm';

const PROBLEM_ID = 'summary-problem';

/**
 * "Headline figures" of the admin request page: the report's figures, the property's, so every
 * request of it shows them (decision 024). Editable before and after covering; saving replaces
 * them whole, and an emptied form clears them.
 */
export function HeadlineFigures({ request, onSaved }: { request: CoverageRequest; onSaved: () => void }) {
  const save = useUpdateSummary(request.id);
  const { values, setValues, field } = useFormFields(() => summaryFormOf(request.summary), {
    idPrefix: 'summary',
    problem: problemOfError(save.error),
    problemId: PROBLEM_ID,
    maxLength: { headline: SUMMARY_HEADLINE_MAX_LENGTH },
  });
  const latestYear = latestYearBuilt();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(toSummaryBody(values), {
      onSuccess: (reply) => {
        // What the server holds now (the headline trimmed, empty fields gone).
        setValues(summaryFormOf(reply.request.summary));
        onSaved();
      },
    });
  }

  return (
    <CardSection testId="headline-figures" className="summary-card" icon="chart" title="Headline Figures">
      <p className="muted summary-hint">
        Shown on the report's Browse card and report page, for every request of this property. Leave a field empty to
        leave it out; empty every field to remove them.
      </p>
      <ProblemAlert problem={save.error} id={PROBLEM_ID} testId="summary-error" />
      <form className="form" onSubmit={handleSubmit} data-testid="summary-form">
        <div className="summary-grid">
          {SUMMARY_NUMBER_FIELDS.map(({ field: name, label, min, max, step, placeholder }) => (
            <TextField
              key={name}
              {...field(name)}
              label={label}
              type="number"
              inputMode={step === 1 ? 'numeric' : 'decimal'}
              min={min}
              max={max ?? latestYear}
              step={step}
              placeholder={placeholder}
            />
          ))}
        </div>
        <TextField
          {...field('headline')}
          label="Headline"
          showCount
          placeholder="Corner lot near the light rail, priced under the street."
        />
        <PendingButton pending={save.isPending} pendingLabel="Saving Figures..." testId="summary-save">
          <Icon name="check" size={18} /> Save Figures
        </PendingButton>
      </form>
    </CardSection>
  );
}
