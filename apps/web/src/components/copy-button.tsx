import { toast } from './ui/toast.tsx';

/**
 * Copies a number (an ATM account, a tracking number, a refund account) without its spaces. Where
 * the browser does not allow it (plain http, an in-app browser), it says to select it by hand.
 */
export function CopyButton({
  text,
  what,
  label,
  className,
}: {
  text: string;
  what: string;
  label?: string;
  className?: string;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text.replace(/\s/g, ''));
      toast.success(`已複製${what}。`);
    } catch {
      toast.error(`無法自動複製，請手動選取${what}。`);
    }
  };
  return (
    <button
      type="button"
      aria-label={label ?? `複製${what}`}
      onClick={() => void copy()}
      className={
        className ??
        'min-h-9 rounded-md border border-tea/40 bg-surface px-3 text-sm font-medium text-tea hover:border-tea hover:bg-tea-soft'
      }
    >
      複製
    </button>
  );
}
