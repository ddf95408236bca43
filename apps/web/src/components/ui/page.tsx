import type { ReactNode } from 'react';
import { cn } from './cn.ts';

/** Content width ≤ 1200 px with the page gutters. */
export function Container({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <div className={cn('mx-auto w-full max-w-[1200px] px-4 sm:px-6 lg:px-8', className)}>{children}</div>
  );
}

/** A page's title block: serif title (brand voice), optional lead and actions. */
export function PageHeader({
  title,
  lead,
  eyebrow,
  actions,
}: {
  title: string;
  lead?: ReactNode;
  eyebrow?: string;
  actions?: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-3 border-b border-line pb-6 sm:flex-row sm:items-end sm:justify-between">
      <div className="flex flex-col gap-2">
        {eyebrow && <p className="text-sm font-medium tracking-widest text-tea">{eyebrow}</p>}
        <h1 className="font-serif text-2xl text-ink sm:text-3xl">{title}</h1>
        {lead && <div className="max-w-2xl text-pretty text-ink-muted">{lead}</div>}
      </div>
      {actions && <div className="flex gap-3">{actions}</div>}
    </header>
  );
}
