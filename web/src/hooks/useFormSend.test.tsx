// @vitest-environment jsdom
import { act } from 'react';
import { type Root, createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FormProblem } from '../session/formProblem';
import { type FormSend, useFormSend } from './useFormSend';

// React warns outside a test renderer unless told this is one.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

/** A form whose only field is the hook's state, shown as text. */
function Form({ steps }: { steps: (setProblem: (p: FormProblem) => void) => FormSend<FormProblem, string> }) {
  const { problem, setProblem, submitting, submit } = useFormSend();
  return (
    <form onSubmit={(event) => void submit(event, steps(setProblem))}>
      <p id="problem">{problem?.message ?? ''}</p>
      <p id="submitting">{String(submitting)}</p>
    </form>
  );
}

const text = (id: string) => container.querySelector(`#${id}`)?.textContent;
const submitForm = () =>
  act(async () => {
    container.querySelector('form')?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });

describe('useFormSend', () => {
  it('shows a problem found before sending, and sends nothing', async () => {
    const send = vi.fn(async () => 'sent');
    act(() =>
      root.render(
        <Form steps={() => ({ check: () => ({ message: 'Bad email', fields: ['email'] }), send, settle: vi.fn() })} />,
      ),
    );
    await submitForm();
    expect(text('problem')).toBe('Bad email');
    expect(send).not.toHaveBeenCalled();
  });

  it('clears the old problem and says it is sending while the call is out, then settles the answer', async () => {
    let check: FormProblem | null = { message: 'Bad email', fields: ['email'] };
    let answer: (value: string) => void = () => {};
    const send = vi.fn(
      () =>
        new Promise<string>((resolve) => {
          answer = resolve;
        }),
    );
    const settle = vi.fn();
    act(() =>
      root.render(
        <Form
          steps={(setProblem) => ({
            check: () => check,
            send,
            settle: (result) => {
              settle(result);
              setProblem({ message: `Server said ${result}`, fields: [] });
            },
          })}
        />,
      ),
    );
    await submitForm();
    check = null;
    await submitForm();
    expect(send).toHaveBeenCalledOnce();
    expect(text('problem')).toBe('');
    expect(text('submitting')).toBe('true');
    await act(async () => answer('no'));
    expect(settle).toHaveBeenCalledWith('no');
    expect(text('submitting')).toBe('false');
    expect(text('problem')).toBe('Server said no');
  });
});
