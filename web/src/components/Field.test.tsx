import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field, TextAreaField, TextField } from './Field';

const noop = () => {};

describe('Field', () => {
  it('ties the label to the control', () => {
    const html = renderToStaticMarkup(<TextField id="contact-name" label="Full Name" value="" onChange={noop} />);
    expect(html).toContain('<label for="contact-name">Full Name</label>');
    expect(html).toContain('id="contact-name"');
    // The test id defaults to the id.
    expect(html).toContain('data-testid="contact-name"');
    expect(html).not.toContain('aria-invalid');
    expect(html).not.toContain('aria-describedby');
  });

  it('points the control at its hint', () => {
    const html = renderToStaticMarkup(
      <TextField id="code" label="Code" hint="The 6-digit code" value="" onChange={noop} />,
    );
    expect(html).toContain('aria-describedby="code-hint"');
    expect(html).toContain('<p class="field-hint" id="code-hint">The 6-digit code</p>');
  });

  it('marks a wrong control invalid and points it at the problem first, then the hint', () => {
    const html = renderToStaticMarkup(
      <TextField
        id="code"
        label="Code"
        hint="Six digits"
        invalid
        describedBy="code-problem"
        value=""
        onChange={noop}
      />,
    );
    expect(html).toContain('class="field field-invalid"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="code-problem code-hint"');
  });

  it('passes the input its own attributes and the field its extra class', () => {
    const html = renderToStaticMarkup(
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
      />,
    );
    expect(html).toContain('class="field key-form-field"');
    expect(html).toMatch(/<input[^>]*type="email"[^>]*required=""[^>]*maxLength="100"/);
    expect(html).toContain('data-testid="key-input"');
  });

  it('gives a text area and any other control the same wiring', () => {
    const area = renderToStaticMarkup(
      <TextAreaField id="notes" label="Notes" rows={4} invalid describedBy="p" value="" onChange={noop} />,
    );
    expect(area).toMatch(/<textarea[^>]*rows="4"[^>]*id="notes"[^>]*aria-invalid="true"[^>]*aria-describedby="p"/);
    const select = renderToStaticMarkup(
      <Field id="status" label="Status">
        {(control) => (
          <select {...control}>
            <option>All</option>
          </select>
        )}
      </Field>,
    );
    expect(select).toContain('<label for="status">Status</label><select id="status">');
  });
});
