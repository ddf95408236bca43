import type { ReactNode } from 'react';
import { CloseButton, useModalDialog } from './dialog.tsx';

export interface DrawerProps {
  open: boolean;
  onClose(): void;
  title: string;
  children: ReactNode;
  /** Stays at the bottom while the body scrolls (the drawer's own buttons). */
  footer?: ReactNode;
}

/**
 * A panel that slides over the page from the right on a phone, on the native <dialog> like
 * `Dialog`: focus is trapped and restored by the browser, Esc and a click on the backdrop close.
 */
export function Drawer({ open, onClose, title, children, footer }: DrawerProps) {
  const { titleId, props } = useModalDialog(open, onClose);
  return (
    <dialog
      {...props}
      className="fixed inset-y-0 right-0 left-auto my-0 mr-0 ml-auto h-dvh max-h-none w-[min(24rem,calc(100%-2.5rem))] max-w-none border-l border-line bg-surface p-0 text-ink shadow-2xl backdrop:bg-ink/40 open:flex open:flex-col"
    >
      <div className="flex items-center justify-between gap-4 border-b border-line px-5 py-3">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <CloseButton onClose={onClose} />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
      {footer && (
        <div className="flex gap-3 border-t border-line px-5 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
          {footer}
        </div>
      )}
    </dialog>
  );
}
