type EmailFieldProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  label?: string;
  autoComplete?: 'email' | 'username';
  placeholder?: string;
  /** Marks the field as wrong (aria-invalid) ... */
  invalid?: boolean;
  /** ... and names the element that says why (aria-describedby). */
  describedBy?: string;
};

/** The required email input of the sign-in and account screens, with its label. */
export function EmailField({
  id,
  value,
  onChange,
  testId,
  label = 'Email Address',
  autoComplete = 'email',
  placeholder = 'you@example.com',
  invalid = false,
  describedBy,
}: EmailFieldProps) {
  return (
    <div className={`field${invalid ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="email"
        type="email"
        autoComplete={autoComplete}
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        data-testid={testId}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
      />
    </div>
  );
}
