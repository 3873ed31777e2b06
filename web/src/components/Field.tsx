import type { ChangeEvent, InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

/** What the control of a field carries, so a screen reader reads its label, problem and hint with it. */
export type ControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type FieldState = {
  /** Marks the control as wrong (aria-invalid) ... */
  invalid?: boolean;
  /** ... and names the element that says why (aria-describedby, read before the hint). */
  describedBy?: string;
};

type FieldProps = FieldState & {
  /** The control's id, which the label points at. */
  id: string;
  label: ReactNode;
  /** A line under the control that says what to enter (its id is `<id>-hint`). */
  hint?: ReactNode;
  className?: string;
  /** How much of its limit the value uses, shown under the control (its id is `<id>-count`). */
  count?: { length: number; max: number };
  /** The control itself, given the attributes that tie it to the label, the problem and the hint. */
  children: (control: ControlProps) => ReactNode;
};

/**
 * One form field: label, control and hint, with the control marked invalid and pointed at the
 * message about it. Every form of the app builds its fields from this, so they read alike.
 */
export function Field({ id, label, hint, invalid = false, describedBy, className, count, children }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const countId = count ? `${id}-count` : undefined;
  const described = [describedBy, hintId, countId].filter(Boolean).join(' ') || undefined;
  const classes = ['field', invalid && 'field-invalid', className].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': invalid || undefined, 'aria-describedby': described })}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {count && (
        <p className={`field-count${count.length >= count.max ? ' field-count-full' : ''}`} id={countId}>
          {count.length.toLocaleString('en-US')} of {count.max.toLocaleString('en-US')} characters
        </p>
      )}
    </div>
  );
}

type TextProps = FieldState & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** Defaults to the id. */
  testId?: string;
  /** Classes of the field around the control, beside `field`. */
  fieldClassName?: string;
  /**
   * The most characters the API takes for this field (the control's maxLength, so nothing longer
   * can be typed); with `showCount`, how many are used shows under it (text areas always show it).
   */
  maxLength?: number;
  showCount?: boolean;
};

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, keyof TextProps | 'children' | 'className'>;
type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, keyof TextProps | 'children' | 'className'>;

/**
 * Splits a text field's props into the Field's, the value binding of its control, and the rest,
 * which go to the control unchanged: the one place both kinds of text field are wired.
 */
function textParts<Rest>({
  id,
  label,
  hint,
  invalid,
  describedBy,
  value,
  onChange,
  testId = id,
  fieldClassName,
  maxLength,
  showCount = false,
  ...rest
}: TextProps & Rest) {
  const count = maxLength !== undefined && showCount ? { length: value.length, max: maxLength } : undefined;
  return {
    field: { id, label, hint, invalid, describedBy, className: fieldClassName, count },
    bind: {
      value,
      maxLength,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
      'data-testid': testId,
    },
    rest,
  };
}

/** A one-line text field (text, email, url, a code). */
export function TextField(props: TextProps & InputProps) {
  const { field, bind, rest } = textParts<InputProps>(props);
  return <Field {...field}>{(control) => <input {...rest} {...control} {...bind} />}</Field>;
}

/** A text field of several lines; with a limit, it shows how much of it is used. */
export function TextAreaField(props: TextProps & TextAreaProps) {
  const { field, bind, rest } = textParts<TextAreaProps>({ showCount: true, ...props });
  return <Field {...field}>{(control) => <textarea {...rest} {...control} {...bind} />}</Field>;
}
