import { PASSWORD_MAX_LENGTH } from '@homereport/contracts';
import { useState } from 'react';
import { Field } from './Field';
import { Icon } from './Icon';

type PasswordFieldProps = {
  id: string;
  /** Defaults to the id. */
  name?: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  /** Defaults to the id. */
  testId?: string;
  placeholder?: string;
  required?: boolean;
  /** Marks the field as wrong (aria-invalid) ... */
  invalid?: boolean;
  /** ... and names the element that says why (aria-describedby). */
  describedBy?: string;
};

/** A password input with a show/hide toggle that keeps focus order and screen-reader labels right. */
export function PasswordField({
  id,
  name = id,
  label,
  value,
  onChange,
  autoComplete,
  testId = id,
  placeholder,
  required = true,
  invalid = false,
  describedBy,
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <Field id={id} label={label} invalid={invalid} describedBy={describedBy}>
      {(control) => (
        <div className="input-with-action">
          <input
            {...control}
            name={name}
            type={visible ? 'text' : 'password'}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            autoComplete={autoComplete}
            maxLength={PASSWORD_MAX_LENGTH}
            required={required}
            placeholder={placeholder}
            data-testid={testId}
          />
          <button
            type="button"
            className="input-action"
            onClick={() => setVisible((shown) => !shown)}
            aria-label={`${visible ? 'Hide' : 'Show'} ${label.toLowerCase()}`}
            aria-pressed={visible}
            aria-controls={id}
            data-testid={`${testId}-toggle`}
          >
            <Icon name={visible ? 'eyeOff' : 'eye'} size={18} />
          </button>
        </div>
      )}
    </Field>
  );
}
