import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Icon } from './Icon';
import './shared.css';

/**
 * A modal dialog (the browser's own <dialog>, so focus stays inside and Escape closes it);
 * also closes on a click outside its box and on its close button. Focus returns on close.
 */
export function Modal({
  title,
  onClose,
  children,
  testId,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement as HTMLElement | null;
    element.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    // A click on the dialog element itself, not its content, is a click on the backdrop;
    // keyboard users close with Escape (the cancel event above).
    const onBackdrop = (event: MouseEvent) => {
      if (event.target === element) close.current();
    };
    element.addEventListener('cancel', onCancel);
    element.addEventListener('click', onBackdrop);
    return () => {
      element.removeEventListener('cancel', onCancel);
      element.removeEventListener('click', onBackdrop);
      if (element.open) element.close();
      previous?.focus?.();
    };
  }, []);

  return (
    <dialog ref={dialog} className="modal" aria-labelledby={titleId} data-testid={testId}>
      <div className="modal-body">
        <button type="button" className="modal-close" aria-label="Close" onClick={onClose} data-testid="modal-close">
          <Icon name="close" size={20} />
        </button>
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
