import { useEffect, useId, useRef, type MouseEvent, type ReactNode, type SyntheticEvent } from 'react';
import { cn } from './cn.ts';

export interface DialogProps {
  open: boolean;
  onClose(): void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  className?: string;
}

/**
 * Modal dialog on the native <dialog>: focus is trapped and restored by the browser, Esc closes,
 * and a click on the backdrop closes.
 */
/**
 * The native <dialog> as a modal: opened and closed with `open`, Esc and a click on the backdrop
 * call `onClose`; focus is trapped and restored by the browser. Spread the props on the <dialog>.
 */
export function useModalDialog(open: boolean, onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return {
    titleId,
    props: {
      ref,
      'aria-labelledby': titleId,
      onClose,
      onCancel: (event: SyntheticEvent<HTMLDialogElement>) => {
        event.preventDefault();
        onClose();
      },
      onClick: (event: MouseEvent<HTMLDialogElement>) => {
        if (event.target === ref.current) onClose();
      },
    },
  };
}

/** The × in a dialog's or drawer's header. */
export function CloseButton({ onClose }: { onClose(): void }) {
  return (
    <button
      type="button"
      onClick={onClose}
      className="-mr-2 inline-flex size-11 items-center justify-center rounded-md text-ink-muted hover:bg-ink/5"
      aria-label="關閉"
    >
      <svg viewBox="0 0 20 20" className="size-5" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
        <path d="M5 5l10 10M15 5 5 15" />
      </svg>
    </button>
  );
}

export function Dialog({ open, onClose, title, children, footer, className }: DialogProps) {
  const { titleId, props } = useModalDialog(open, onClose);
  return (
    <dialog
      {...props}
      className={cn(
        'm-auto w-[calc(100%-2rem)] max-w-lg rounded-xl border border-line bg-surface p-0 text-ink shadow-2xl backdrop:bg-ink/40',
        className,
      )}
    >
      <div className="flex items-start justify-between gap-4 border-b border-line px-6 py-4">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <CloseButton onClose={onClose} />
      </div>
      <div className="px-6 py-5">{children}</div>
      {footer && <div className="flex justify-end gap-3 border-t border-line px-6 py-4">{footer}</div>}
    </dialog>
  );
}
