import type { ReactNode } from 'react';

/** A titled card of a detail page. */
export function Panel({
  title,
  children,
  actions,
  className = '',
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-label={title}
      className={`min-w-0 rounded-xl border border-line bg-surface p-5 ${className}`}
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** Label / value rows. */
export function Facts({ rows }: { rows: ReadonlyArray<readonly [string, ReactNode] | null | false> }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
      {rows.map(
        (row) =>
          row && (
            <div key={row[0]} className="contents">
              <dt className="text-ink-muted">{row[0]}</dt>
              <dd className="break-words">{row[1]}</dd>
            </div>
          ),
      )}
    </dl>
  );
}
