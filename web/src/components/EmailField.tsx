import { EMAIL_MAX_LENGTH } from '@homereport/contracts';
import { TextField } from './Field';

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
  label = 'Email Address',
  autoComplete = 'email',
  placeholder = 'you@example.com',
  ...field
}: EmailFieldProps) {
  return (
    <TextField
      {...field}
      label={label}
      name="email"
      type="email"
      maxLength={EMAIL_MAX_LENGTH}
      autoComplete={autoComplete}
      required
      placeholder={placeholder}
    />
  );
}
