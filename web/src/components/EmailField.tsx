import { EMAIL_MAX_LENGTH } from '@homereport/contracts';
import type { ComponentProps } from 'react';
import { TextField } from './Field';

type EmailFieldProps = Omit<ComponentProps<typeof TextField>, 'label' | 'autoComplete'> & {
  label?: string;
  autoComplete?: 'email' | 'username';
};

/** The required email input of the sign-in, account and contact screens, with its label. */
export function EmailField({
  label = 'Email Address',
  autoComplete = 'email',
  placeholder = 'you@example.com',
  maxLength = EMAIL_MAX_LENGTH,
  ...field
}: EmailFieldProps) {
  return (
    <TextField
      {...field}
      label={label}
      name="email"
      type="email"
      maxLength={maxLength}
      autoComplete={autoComplete}
      required
      placeholder={placeholder}
    />
  );
}
