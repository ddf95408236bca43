import { useEffect } from 'react';
import { create } from 'zustand';
import { cn } from './cn.ts';

export type ToastTone = 'info' | 'success' | 'error';

interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

interface ToastState {
  toasts: Toast[];
  push(message: string, tone?: ToastTone): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
  push: (message, tone = 'info') =>
    set((s) => ({ toasts: [...s.toasts.slice(-2), { id: nextId++, message, tone }] })),
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));

/** Show a short message; errors stay longer. */
export const toast = {
  info: (message: string) => useToastStore.getState().push(message, 'info'),
  success: (message: string) => useToastStore.getState().push(message, 'success'),
  error: (message: string) => useToastStore.getState().push(message, 'error'),
};

const tones: Record<ToastTone, string> = {
  info: 'border-line bg-ink text-white',
  success: 'border-success/30 bg-success text-white',
  error: 'border-danger/30 bg-danger text-white',
};

function ToastItem({ toast: t }: { toast: Toast }) {
  const dismiss = useToastStore((s) => s.dismiss);
  useEffect(() => {
    const timer = setTimeout(() => dismiss(t.id), t.tone === 'error' ? 8000 : 4000);
    return () => clearTimeout(timer);
  }, [t.id, t.tone, dismiss]);
  return (
    <div
      className={cn(
        'pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg',
        tones[t.tone],
      )}
    >
      <p className="flex-1">{t.message}</p>
      <button
        type="button"
        onClick={() => dismiss(t.id)}
        className="-my-1 -mr-1 rounded px-2 py-1 text-white/80 hover:text-white"
        aria-label="關閉通知"
      >
        ✕
      </button>
    </div>
  );
}

/** One polite live region for all toasts, bottom-centre on mobile, bottom-right on desktop. */
export function ToastViewport() {
  const toasts = useToastStore((s) => s.toasts);
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4 sm:items-end sm:px-6"
    >
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
