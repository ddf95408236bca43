import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A console page: title, optional back link and actions, then the content. */
export function AdminPage({
  title,
  back,
  actions,
  description,
  children,
}: {
  title: string;
  back?: { to: string; label: string };
  actions?: ReactNode;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        {back && (
          <Link to={back.to} className="self-start text-sm text-tea underline-offset-4 hover:underline">
            ← {back.label}
          </Link>
        )}
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h1 className="font-serif text-2xl text-ink sm:text-3xl">{title}</h1>
            {description && <p className="mt-1 text-sm text-ink-muted">{description}</p>}
          </div>
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      </header>
      {children}
    </div>
  );
}

/** A labelled filter bar above a table. */
export function FilterBar({ children, label = '篩選條件' }: { children: ReactNode; label?: string }) {
  return (
    <form
      role="search"
      aria-label={label}
      className="flex flex-wrap items-end gap-3 rounded-xl border border-line bg-surface p-4"
      onSubmit={(e) => e.preventDefault()}
    >
      {children}
    </form>
  );
}
