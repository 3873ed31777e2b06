import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field, TextAreaField, TextField } from './Field';

const noop = () => {};

type Case = { what: string; field: ReactElement; has: (string | RegExp)[]; lacks?: string[] };

describe('Field', () => {
  it.each<Case>([
    {
      what: 'ties the label to the control, its test id defaulting to the id',
      field: <TextField id="contact-name" label="Full Name" value="" onChange={noop} />,
      has: ['<label for="contact-name">Full Name</label>', 'id="contact-name"', 'data-testid="contact-name"'],
      lacks: ['aria-invalid', 'aria-describedby'],
    },
    {
      what: 'points the control at its hint',
      field: <TextField id="code" label="Code" hint="The 6-digit code" value="" onChange={noop} />,
      has: ['aria-describedby="code-hint"', '<p class="field-hint" id="code-hint">The 6-digit code</p>'],
    },
    {
      what: 'marks a wrong control invalid and points it at the problem first, then the hint',
      field: (
        <TextField
          id="code"
          label="Code"
          hint="Six digits"
          invalid
          describedBy="code-problem"
          value=""
          onChange={noop}
        />
      ),
      has: ['class="field field-invalid"', 'aria-invalid="true"', 'aria-describedby="code-problem code-hint"'],
    },
    {
      what: 'passes the input its own attributes and the field its extra class',
      field: (
        <TextField
          id="key"
          label="Key name"
          fieldClassName="key-form-field"
          testId="key-input"
          type="email"
          required
          maxLength={100}
          value="a"
          onChange={noop}
        />
      ),
      has: [
        'class="field key-form-field"',
        /<input[^>]*type="email"[^>]*required=""[^>]*maxLength="100"/,
        'data-testid="key-input"',
      ],
    },
    {
      what: 'gives a text area the same wiring',
      field: <TextAreaField id="notes" label="Notes" rows={4} invalid describedBy="p" value="" onChange={noop} />,
      has: [/<textarea[^>]*rows="4"[^>]*id="notes"[^>]*aria-invalid="true"[^>]*aria-describedby="p"/],
    },
    {
      what: 'gives any other control the same wiring',
      field: (
        <Field id="status" label="Status">
          {(control) => (
            <select {...control}>
              <option>All</option>
            </select>
          )}
        </Field>
      ),
      has: ['<label for="status">Status</label><select id="status">'],
    },
  ])('$what', ({ field, has, lacks = [] }) => {
    const html = renderToStaticMarkup(field);
    for (const part of has) expect(html).toMatch(part);
    for (const part of lacks) expect(html).not.toContain(part);
  });
});
