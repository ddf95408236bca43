import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { PageOf } from '@shop/shared/admin';
import { cn } from '../../components/ui/cn.ts';
import { Pagination } from '../../components/ui/pagination.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { LoadError } from '../../components/load-error.tsx';

export interface Column<T> {
  readonly key: string;
  readonly header: ReactNode;
  readonly cell: (row: T) => ReactNode;
  readonly align?: 'left' | 'right' | 'center';
  readonly className?: string;
}

const alignClass = { left: 'text-left', right: 'text-right', center: 'text-center' } as const;

/**
 * A server-paged table: a real <table> (screen readers and the keyboard move through it as
 * usual; put a link in the first cell to open a row), a loading skeleton, an empty message and an
 * error with a retry. Scrolls sideways inside itself on narrow screens.
 */
export function DataTable<T>({
  caption,
  columns,
  query,
  rowKey,
  empty,
  onPage,
}: {
  caption: string;
  columns: readonly Column<T>[];
  query: UseQueryResult<PageOf<T>>;
  rowKey: (row: T) => string;
  empty: ReactNode;
  onPage: (page: number) => void;
}) {
  const data = query.data;
  return (
    <div className="flex flex-col gap-4">
      {query.isError && <LoadError title="資料暫時無法載入" query={query} />}
      <div className="relative overflow-x-auto rounded-xl border border-line bg-surface">
        <table className="w-full text-sm">
          <caption className="sr-only">
            {caption}
            {data ? `，共 ${data.total} 筆，第 ${data.page} / ${data.totalPages} 頁` : ''}
          </caption>
          <thead className="bg-paper text-ink-muted">
            <tr>
              {columns.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={cn(
                    'px-4 py-3 font-medium whitespace-nowrap',
                    alignClass[c.align ?? 'left'],
                    c.className,
                  )}
                >
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody aria-busy={query.isFetching}>
            {!data &&
              !query.isError &&
              Array.from({ length: 6 }, (_, i) => (
                <tr key={i} className="border-t border-line">
                  {columns.map((c) => (
                    <td key={c.key} className="px-4 py-3">
                      <Skeleton className="h-4 w-full max-w-40" />
                    </td>
                  ))}
                </tr>
              ))}
            {data?.items.map((row) => (
              <tr
                key={rowKey(row)}
                className="border-t border-line hover:bg-paper/60 focus-within:bg-paper/60"
              >
                {columns.map((c) => (
                  <td
                    key={c.key}
                    className={cn('px-4 py-3 align-top', alignClass[c.align ?? 'left'], c.className)}
                  >
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
            {data && data.items.length === 0 && (
              <tr className="border-t border-line">
                <td colSpan={columns.length} className="px-4 py-10 text-center text-ink-muted">
                  {empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {data && (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="tabular text-sm text-ink-muted">共 {data.total} 筆</p>
          <Pagination page={data.page} totalPages={data.totalPages} onPage={onPage} />
        </div>
      )}
    </div>
  );
}
