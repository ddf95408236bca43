import type { ReactNode } from 'react';

/** Says what is empty and offers a way out. */
export function EmptyState({
  title,
  description,
  action,
  icon,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-line bg-surface/60 px-6 py-12 text-center">
      <div className="text-tea/70" aria-hidden="true">
        {icon ?? (
          <svg viewBox="0 0 48 48" className="size-12" fill="none" stroke="currentColor" strokeWidth="1.5">
            <path d="M10 30h28l-3 10H13l-3-10Z" />
            <path d="M16 30c0-6 3-10 8-14 5 4 8 8 8 14" />
            <path d="M24 16v-6" />
          </svg>
        )}
      </div>
      <h2 className="text-lg font-semibold text-ink">{title}</h2>
      {description && <div className="max-w-md text-sm text-ink-muted">{description}</div>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
