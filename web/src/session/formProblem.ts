import { type ApiFailure, isApiError } from '../api/client';

/** What is wrong with a form: the message shown once, and the fields it is about. */
export type FormProblem = { message: string; fields: readonly string[] };

/** A refusal from the server, about the fields it named, or else `orFields`. */
export function problemFrom(failure: ApiFailure, orFields: readonly string[] = []): FormProblem {
  return { message: failure.error, fields: failure.fields?.length ? failure.fields : orFields };
}

/** A failed mutation's error as a form's problem: its message, and the fields an API refusal named. */
export function problemOfError(error: Error | null): FormProblem | null {
  if (!error) return null;
  return { message: error.message, fields: isApiError(error) ? error.fields : [] };
}

/**
 * The attributes that mark a field invalid and point it at the message that says why
 * (`aria-invalid`, `aria-describedby`), so a screen reader reads the problem with the field.
 */
export function fieldState(problem: FormProblem | null, field: string, messageId: string) {
  const invalid = problem?.fields.includes(field) === true;
  return { invalid, describedBy: invalid ? messageId : undefined };
}
