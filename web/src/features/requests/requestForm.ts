import type { CreateRequestBody } from '@homereport/contracts';

export type RequestForm = { address: string; url: string; notes: string };

export const emptyRequestForm: RequestForm = { address: '', url: '', notes: '' };

/** Spec section 5: the submit button waits for an address and for the previous submission. */
export function canSubmitRequest(form: RequestForm, submitting: boolean): boolean {
  return form.address.trim() !== '' && !submitting;
}

/** What is sent: trimmed values, optional fields left out when blank. */
export function toCreateRequestBody(form: RequestForm): CreateRequestBody {
  const body: CreateRequestBody = { address: form.address.trim() };
  const url = form.url.trim();
  const notes = form.notes.trim();
  if (url) body.url = url;
  if (notes) body.notes = notes;
  return body;
}
