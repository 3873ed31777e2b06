import { type FormEvent, useState } from 'react';
import type { FormProblem } from '../session/formProblem';

/** The steps of one submit: what the form itself refuses, the call, and what its answer does. */
export interface FormSend<P extends FormProblem, R> {
  /** The first problem found before anything is sent, or null to send. */
  check: () => P | null;
  send: () => Promise<R>;
  /** The answer, once sending is over; a refusal sets its problem through `setProblem`. */
  settle: (result: R) => void;
}

/**
 * The problem a form shows and whether it is sending, for forms that check their fields and then
 * send once (register, forgot and reset password, contact). A problem found before sending is
 * shown and nothing is sent; otherwise the old problem goes while the call is out.
 */
export function useFormSend<P extends FormProblem = FormProblem>(initial: P | null = null) {
  const [problem, setProblem] = useState<P | null>(initial);
  const [submitting, setSubmitting] = useState(false);

  async function submit<R>(event: FormEvent<HTMLFormElement>, steps: FormSend<P, R>): Promise<void> {
    event.preventDefault();
    const local = steps.check();
    if (local) {
      setProblem(local);
      return;
    }
    setProblem(null);
    setSubmitting(true);
    const result = await steps.send();
    setSubmitting(false);
    steps.settle(result);
  }

  return { problem, setProblem, submitting, submit };
}
