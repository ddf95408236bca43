import type { ReactNode } from 'react';
import { cn } from './cn.ts';

export type BadgeTone = 'neutral' | 'tea' | 'amber' | 'danger' | 'success';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-paper text-ink-muted border-line',
  tea: 'bg-tea-soft text-tea-dark border-tea/20',
  amber: 'bg-amber-soft text-[#7a4f22] border-amber/30',
  danger: 'bg-danger-soft text-danger border-danger/20',
  success: 'bg-success-soft text-success border-success/20',
};

export function Badge({
  tone = 'neutral',
  className,
  children,
}: {
  tone?: BadgeTone;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
